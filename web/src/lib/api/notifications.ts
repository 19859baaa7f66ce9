import { api, type Schemas } from './client'

export type Notification = Schemas['Notification']
export const fetchNotifications = () => api<{ notifications: Notification[]; unread: number }>('/api/notifications', { auth: true })
