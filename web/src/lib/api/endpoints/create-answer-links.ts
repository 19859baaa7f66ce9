import { request } from '../client'

/**
 * The client's one-tap answer links (confirm, ask to move, cancel) for a
 * WhatsApp message with {link_confirmar}, {link_remarcar} or {link_cancelar};
 * each call issues new ones, answering as WhatsApp.
 */
export const createAnswerLinks = (id: string) => request('post', '/api/appointments/{id}/answer-links', { path: { id }, auth: true })
