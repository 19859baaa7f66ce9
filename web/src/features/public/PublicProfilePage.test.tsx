import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import PublicProfilePage from './PublicProfilePage'

afterEach(() => vi.unstubAllGlobals())

const base: Schemas['PublicProfile'] = {
  username: 'ana', name: 'Ana Souza', area: 'Psicologia', description: '', photoUrl: '', contactEmail: '', phone: '', website: '',
  instagram: '', linkedin: '', whatsapp: '', address: '', mapsUrl: '', bookingOpen: true, firstBookableDate: '2026-11-23', lastBookableDate: '2027-02-21',
  services: [
    { id: 's1', name: 'Sessão presencial', description: null, duration: 50, priceCents: 15000, professionalIds: [], online: false, deposit: null },
    { id: 's2', name: 'Sessão online', description: null, duration: 50, priceCents: 15000, professionalIds: [], online: true, deposit: null },
  ],
  professionals: [],
}

function open(p: Schemas['PublicProfile']) {
  stubFetch((c) => (c.url === '/api/public/profiles/ana' ? { status: 200, body: p } : undefined))
  renderRoutes([{ path: '/agende/:username', Component: PublicProfilePage }], '/agende/ana')
}

describe('the public page says where', () => {
  it('shows the address with a maps link, and marks the online service', async () => {
    const address = 'Rua das Flores, 123 - Centro, São Paulo - SP, 01001-000'
    const maps = 'https://www.google.com/maps/search/?api=1&query=Rua+das+Flores%2C+123'
    open({ ...base, address, mapsUrl: maps })
    expect(await screen.findByText(new RegExp(address))).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver no mapa' })).toHaveAttribute('href', maps)
    expect(screen.getByRole('link', { name: /Sessão online.*Online, por videochamada/ })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Sessão presencial/ })).not.toHaveTextContent('videochamada')
  })

  it('shows no address line when the owner set none', async () => {
    open(base)
    expect(await screen.findByText('Sessão online')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Ver no mapa' })).toBeNull()
  })
})
