import { Module } from '@nestjs/common';
import { ListingStore } from './listing.store.js';

@Module({ providers: [ListingStore], exports: [ListingStore] })
export class ListingsModule {}
