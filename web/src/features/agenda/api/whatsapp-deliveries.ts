import { useQuery } from '@tanstack/react-query'
import { request, type Schemas } from '@/lib/api/client'
import { queryKeys } from '@/lib/api/keys'

export type WhatsAppDelivery = Schemas['WhatsAppDelivery']

export const getWhatsAppDeliveries = (id: string) => request('get', '/api/appointments/{id}/whatsapp', { path: { id }, auth: true })

/** The WhatsApp messages Agendei sent about an appointment, with their delivery status. */
export const useWhatsAppDeliveries = (id: string) => useQuery({ queryKey: queryKeys.whatsappDeliveries(id), queryFn: () => getWhatsAppDeliveries(id) })
