import type { Schemas } from './api/client'
import { longDate } from './format'
import { whatsappNumber } from './phone'

/** A number already in international form (the product's support line) as a wa.me link, optionally with a prefilled text. */
export function whatsappLink(number: string, text?: string): string {
  const digits = number.replace(/\D/g, '')
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ''}`
}

/**
 * A Brazilian phone as a wa.me link (SPEC §2 Agenda), by the one phone rule
 * (whatsappNumber: 55 and the DDD and number), optionally with a prefilled
 * text; undefined when it is not a phone. The one rule for the agenda, the
 * client page, the dashboard and the owner's own number on the public page,
 * and the server's brfmt.WhatsApp.
 */
export function whatsappFor(phone: string, text?: string): string | undefined {
  const number = whatsappNumber(phone)
  return number === null ? undefined : whatsappLink(number, text)
}

/** Where an appointment happens: the address, or an online service's video-call link (the server's place.Place). */
export type MessagePlace = Pick<Schemas['Place'], 'online' | 'link' | 'address'>

/** The place as one line, as the e-mails and the invite say it ({endereco}): the link of an online service ('Online' without one), else the address. */
export function placeText(p?: MessagePlace): string {
  if (!p) return ''
  if (p.online) return p.link || 'Online'
  return p.address
}

/**
 * The place of one of the owner's services, by the server's rule (place.Of):
 * an online service at its own link or else the owner's room; any other
 * (or an unknown one) at the address.
 */
export function placeOf(
  address: string,
  roomLink: string,
  service?: { online: boolean; onlineLink: string } | null,
): MessagePlace {
  if (service?.online) return { online: true, link: service.onlineLink || roomLink, address: '' }
  return { online: false, link: '', address }
}

/** The client's one-tap answers (issue 28): {link_confirmar}, {link_remarcar}, {link_cancelar}. */
export type AnswerLinks = Schemas['AnswerLinks']

/** What a message template's placeholders stand for. */
export type MessageFacts = {
  clientName: string
  date: string
  time: string
  serviceName: string
  professionalName: string
  link: string
  clientLink?: string
  answers?: AnswerLinks
  place?: MessagePlace
}

/** A template with {nome}, {data}, {hora}, {servico}, {profissional} and {link} filled. */
export function fillMessage(template: string, f: MessageFacts): string {
  const first = f.clientName.trim().split(/\s+/)[0] ?? ''
  const values: Record<string, string> = {
    '{nome}': first,
    '{data}': longDate(f.date),
    '{hora}': f.time,
    '{servico}': f.serviceName,
    '{profissional}': f.professionalName,
    '{link}': f.link,
    '{link_cliente}': f.clientLink ?? '',
    '{endereco}': placeText(f.place),
    '{link_sessao}': f.place?.online ? f.place.link : '',
    '{link_confirmar}': f.answers?.confirm ?? '',
    '{link_remarcar}': f.answers?.reschedule ?? '',
    '{link_cancelar}': f.answers?.cancel ?? '',
  }
  return template.replace(/\{[^{}\s]*\}/g, (p) => values[p] ?? p)
}

/** The placeholder of the client's own private link: the server issues a fresh one when the message is composed. */
export const clientLinkWord = '{link_cliente}'

/** The placeholders of the client's one-tap answers: the server issues them when the message is composed. */
export const answerWords = ['{link_confirmar}', '{link_remarcar}', '{link_cancelar}'] as const
