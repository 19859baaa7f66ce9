import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { PublicPageCard } from './PublicPageCard'

afterEach(() => vi.unstubAllGlobals())

// Issue 43 §3: one switch, with the reason beside it, saved at once.
it('turns "Ocultar preços na página pública" on, with the councils\' reason as its description', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url === '/api/profile/public-page' && c.method === 'GET') return { status: 200, body: { hidePrices: false } }
    if (c.url === '/api/profile/public-page' && c.method === 'PUT') return { status: 200, body: c.body }
    return undefined
  })
  renderRoutes([{ path: '/profile', Component: PublicPageCard }], '/profile')
  const toggle = await screen.findByRole('switch', { name: 'Ocultar preços na página pública' })
  expect(toggle).not.toBeChecked()
  expect(toggle).toHaveAccessibleDescription(/conselhos de saúde .* proíbem divulgar preço como propaganda/)
  await userEvent.setup().click(toggle)
  await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ hidePrices: true }))
  await waitFor(() => expect(screen.getByRole('switch', { name: 'Ocultar preços na página pública' })).toBeChecked())
})
