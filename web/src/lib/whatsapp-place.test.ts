import { describe, expect, it } from 'vitest'
import { fillMessage, placeOf, placeText } from './whatsapp'

const facts = { clientName: 'Maria Silva', date: '2026-11-30', time: '10:00', serviceName: 'Sessão', professionalName: 'Ana', link: 'https://agendei.app/agende/ana' }
const address = 'Rua das Flores, 123 - Centro, São Paulo - SP, 01001-000'
const room = 'https://meet.example.com/sala'

describe('{endereco} and {link_sessao}', () => {
  const template = 'Local: {endereco} | Sala: {link_sessao}'

  it('an appointment in person says the address and no link', () => {
    expect(fillMessage(template, { ...facts, place: placeOf(address, room, { online: false, onlineLink: '' }) })).toBe(`Local: ${address} | Sala: `)
  })

  it("an online service's own link replaces the address, or else the owner's room", () => {
    const own = 'https://zoom.example.com/j/1'
    expect(fillMessage(template, { ...facts, place: placeOf(address, room, { online: true, onlineLink: own }) })).toBe(`Local: ${own} | Sala: ${own}`)
    expect(fillMessage(template, { ...facts, place: placeOf(address, room, { online: true, onlineLink: '' }) })).toBe(`Local: ${room} | Sala: ${room}`)
  })

  it('an unknown service is at the address; no place at all leaves them empty', () => {
    expect(placeOf(address, room, undefined)).toEqual({ online: false, link: '', address })
    expect(fillMessage(template, facts)).toBe('Local:  | Sala: ')
    expect(placeText({ online: true, link: '', address: '' })).toBe('Online')
  })
})
