import type { FastifyReply } from 'fastify';

/** RFC 9457 document plus our `code`, `features` and `errors` extension members. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code?: string;
  [extension: string]: unknown;
}

export function sendProblem(reply: FastifyReply, problem: ProblemDocument, headers: Record<string, string> = {}): void {
  void reply
    .status(problem.status)
    .headers({ ...headers, 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store' })
    .send(JSON.stringify(problem));
}
