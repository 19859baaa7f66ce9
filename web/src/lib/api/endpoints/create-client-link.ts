import { request } from '../client'

/**
 * A fresh private link for an appointment's client (the page where they see,
 * cancel or move it), for a WhatsApp message with {link_cliente}; the links
 * issued before keep working.
 */
export const createClientLink = (id: string) => request('post', '/api/appointments/{id}/client-link', { path: { id }, auth: true })
