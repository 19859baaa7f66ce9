import { fireEvent, screen, within } from '@testing-library/react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { AffectedAppointments } from './AffectedAppointments'

afterEach(() => vi.unstubAllGlobals())

const address = 'Rua das Flores, 123 - Centro, São Paulo - SP, 01001-000'
const room = 'https://meet.example.com/sala'
const own = 'https://zoom.example.com/j/1'
const base = { date: '2026-11-30', duration: 60, clientEmail: '', professionalId: 'p1', professionalName: 'Ana' }
const list = [
  { ...base, id: 'a1', time: '09:00', clientName: 'Fernanda Vieira', clientPhone: '11988887777', serviceName: 'Sessão', serviceId: 's1' },
  { ...base, id: 'a2', time: '10:00', clientName: 'Rosa Alves', clientPhone: '11966665555', serviceName: 'Sessão online', serviceId: 's2' },
  { ...base, id: 'a3', time: '11:00', clientName: 'Carla Dias', clientPhone: '11955554444', serviceName: 'Grupo online', serviceId: 's3' },
]
const service = (id: string, online: boolean, onlineLink = '') => ({ id, name: id, duration: 60, priceCents: 0, bufferBefore: 0, bufferAfter: 0, active: true, online, onlineLink })

// The WhatsApp notice of an appointment cancelled before a block says its
// place by the rule of every other WhatsApp button (placeOf): an online
// service's own link or else the owner's room replaces the address.
it("fills {endereco} and {link_sessao} by the appointment's service", async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/message-templates') return { status: 200, body: { confirmation: 'Oi', reminder: 'Oi', reschedule: 'Cancelado. Local: {endereco} | Sala: {link_sessao}' } }
    if (c.url === '/api/profile') return { status: 200, body: { publicUsername: 'ana', addressLine: address, roomLink: room } }
    if (c.url === '/api/services') return { status: 200, body: [service('s1', false), service('s2', true), service('s3', true, own)] }
    const m = c.url.match(/^\/api\/appointments\/(a\d)$/)
    if (m && c.method === 'PATCH') return { status: 200, body: { id: m[1], status: 'cancelled' } }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <AffectedAppointments list={list} pending={false} onBack={() => {}} onSave={() => {}} /> }], '/')

  const said = async (name: string) => {
    const item = await screen.findByRole('listitem', { name })
    fireEvent.click(within(item).getByRole('button', { name: 'Cancelar e avisar' }))
    const link = await within(item).findByRole('link', { name: 'Avisar remarcação pelo WhatsApp' })
    return new URL(link.getAttribute('href')!).searchParams.get('text')
  }
  expect(await said('Fernanda Vieira')).toBe(`Cancelado. Local: ${address} | Sala: `)
  expect(await said('Rosa Alves')).toBe(`Cancelado. Local: ${room} | Sala: ${room}`)
  expect(await said('Carla Dias')).toBe(`Cancelado. Local: ${own} | Sala: ${own}`)
})
