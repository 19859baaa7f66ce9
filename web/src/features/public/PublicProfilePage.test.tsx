import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { renderRoutes, stubFetch } from '@/test/render'
import PublicProfilePage from './PublicProfilePage'

afterEach(() => vi.unstubAllGlobals())

const base: Schemas['PublicProfile'] = {
  username: 'ana', name: 'Ana Souza', area: 'Psicologia', description: '', photoUrl: '', contactEmail: '', phone: '', website: '',
  instagram: '', linkedin: '', whatsapp: '', address: '', mapsUrl: '', bookingOpen: true, hidePrices: false, firstBookableDate: '2026-11-23', lastBookableDate: '2027-02-21',
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

// Issue 43 §3: the councils' rules — full name and registration in any publicity (CFP, art. 20), and no price as advertising.
describe('the public page within the councils\' rules', () => {
  const ana = { id: 'p1', name: 'Ana Souza', specialization: 'Psicóloga', photoUrl: '', councilLabel: 'CRP 06/12345', headline: 'Psicóloga — CRP 06/12345' }

  it('names each professional with their full name and council registration', async () => {
    open({ ...base, professionals: [ana, { id: 'p2', name: 'Bia Lima', specialization: 'Nutricionista', photoUrl: '', councilLabel: '', headline: 'Nutricionista' }] })
    const team = await screen.findByRole('region', { name: 'Profissionais' })
    expect(team).toHaveTextContent('Ana SouzaPsicóloga — CRP 06/12345')
    expect(team).toHaveTextContent('Bia LimaNutricionista')
  })

  it('shows the prices the answer carries', async () => {
    open({ ...base, professionals: [ana] })
    expect(await screen.findByRole('link', { name: /Sessão presencial.*R\$ 150,00/ })).toBeInTheDocument()
    expect(screen.queryByText('Valor informado no atendimento')).toBeNull()
  })

  it('says "Valor informado no atendimento" and no R$ at all when the owner hides prices', async () => {
    const services = base.services.map((s) => ({ ...s, priceCents: undefined }))
    open({ ...base, hidePrices: true, services, professionals: [ana] })
    expect(await screen.findByRole('link', { name: /Sessão presencial.*Valor informado no atendimento/ })).toBeInTheDocument()
    expect(screen.getAllByText('Valor informado no atendimento')).toHaveLength(2)
    expect(document.body).not.toHaveTextContent('R$')
    expect(screen.getByRole('region', { name: 'Profissional' })).toHaveTextContent('Psicóloga — CRP 06/12345')
  })
})
