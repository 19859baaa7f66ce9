import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api/client'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { OAuthReturnPage, type OAuthReturn } from './OAuthReturnPage'

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('OAuthReturnPage', () => {
  it('hands back what the provider sent, once, says so and goes back to the profile', async () => {
    stubFetch((c) => (c.url === '/api/auth/refresh' ? { status: 200, body: session } : undefined))
    const handed: OAuthReturn[] = []
    const said: string[] = []
    const Page = () => (
      <OAuthReturnPage
        finish={(back) => {
          handed.push(back)
          return Promise.resolve({ name: 'conta' })
        }}
        connected={(r) => said.push(r.name)}
        failedTitle="Provedor não conectado"
        fallback="Não foi possível conectar."
      />
    )
    const router = renderRoutes(
      [
        { path: '/profile/x', Component: Page },
        { path: '/profile', Component: () => <p>perfil</p> },
      ],
      '/profile/x?code=c0de&state=st4te',
    )
    expect(await screen.findByText('perfil')).toBeInTheDocument()
    expect(handed).toEqual([{ code: 'c0de', state: 'st4te', error: '' }])
    expect(said).toEqual(['conta'])
    expect(router.state.location.pathname).toBe('/profile')
  })

  it('says a refusal in pt-BR under its title, with the way back', async () => {
    stubFetch((c) => (c.url === '/api/auth/refresh' ? { status: 200, body: session } : undefined))
    const handed: OAuthReturn[] = []
    const Page = () => (
      <OAuthReturnPage
        finish={(back) => {
          handed.push(back)
          return Promise.reject(new ApiError(400, 'oauth_denied', 'Você não autorizou o acesso.'))
        }}
        connected={() => {
          throw new Error('not connected')
        }}
        failedTitle="Provedor não conectado"
        fallback="Não foi possível conectar."
      />
    )
    renderRoutes([{ path: '/profile/x', Component: Page }], '/profile/x?error=access_denied&state=st4te')
    expect(await screen.findByRole('heading', { name: 'Provedor não conectado' })).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('Você não autorizou o acesso.')
    expect(screen.getByRole('link', { name: 'Voltar ao perfil' })).toHaveAttribute('href', '/profile')
    await waitFor(() => expect(handed).toEqual([{ code: '', state: 'st4te', error: 'access_denied' }]))
  })

  it('falls back to its own words when the failure says none', async () => {
    stubFetch((c) => (c.url === '/api/auth/refresh' ? { status: 200, body: session } : undefined))
    const Page = () => <OAuthReturnPage finish={() => Promise.reject(new TypeError('network'))} connected={() => {}} failedTitle="Provedor não conectado" fallback="Não foi possível conectar." />
    renderRoutes([{ path: '/profile/x', Component: Page }], '/profile/x?code=c&state=s')
    expect(await screen.findByRole('alert')).toHaveTextContent('Não foi possível conectar.')
  })
})
