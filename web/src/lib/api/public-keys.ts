import type { operations } from './schema'

type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>

/**
 * The query keys of the public booking pages, apart from the owner app's
 * (keys.ts spreads them into queryKeys, so the one list still holds every
 * key): the public pages import only these, and their bundle carries no
 * owner-app key.
 */
export const publicKeys = {
  publicProfile: (username: string) => ['public-profile', username] as const,
  days: {
    all: ['days'] as const,
    of: (username: string, q: Query<'getBookableDays'>) => ['days', username, q] as const,
  },
  times: {
    all: ['times'] as const,
    of: (username: string, q: Query<'getFreeTimes'>) => ['times', username, q] as const,
  },
  cancellation: (token: string) => ['cancellation', token] as const,
  rescheduleTimes: (token: string, date: string) => ['reschedule-times', token, date] as const,
  answer: (token: string) => ['answer', token] as const,
  // The client's copy of their prontuário through the private link (issue 43): never cached once closed.
  clientRecord: (token: string) => ['client-record', token] as const,
}
