import { useQuery } from '@tanstack/react-query'
import { request, type Schemas } from '../client'
import { queryKeys } from '../keys'

export type ReminderReach = Schemas['ReminderReach']

export const getReminderReach = () => request('get', '/api/reminders/reach', { auth: true })

/** Who the next 30 days' reminders reach, by channel, and the clients none reaches (the reminders card, the dashboard). */
export const useReminderReach = () => useQuery({ queryKey: queryKeys.reminderReach, queryFn: getReminderReach })
