import { Module } from '@nestjs/common';
import { SessionTimelineController } from './session-timeline.controller.js';
import { SessionTimelineService } from './session-timeline.service.js';
import { SessionTimelineStore } from './session-timeline.store.js';

/** A session's timeline for the console (docs/console.md, "A session's timeline"). */
@Module({ controllers: [SessionTimelineController], providers: [SessionTimelineStore, SessionTimelineService] })
export class SessionTimelineModule {}
