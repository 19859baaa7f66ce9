import { queryOptions, useQuery } from '@tanstack/react-query'
import { request } from '../client'
import { queryKeys } from '../keys'

export const getNotifications = () => request('get', '/api/notifications', { auth: true })

export const notificationsQueryOptions = () => queryOptions({ queryKey: queryKeys.notifications, queryFn: getNotifications })

/** The owner's notifications and unread count (the bell and the notifications screen). */
export const useNotifications = ({ enabled = true }: { enabled?: boolean } = {}) => useQuery({ ...notificationsQueryOptions(), enabled })
