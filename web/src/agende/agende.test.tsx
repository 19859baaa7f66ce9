import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { queryClient, useQuery } from './query'
import { Link, match, route, useParams, useSearchParams } from './router'

describe('light router', () => {
  beforeEach(() => window.history.replaceState(null, '', '/agende/ana'))

  it('matches the public routes and nothing else', () => {
    expect(route('/agende/ana')).toEqual({ pattern: '/agende/:username', params: { username: 'ana' } })
    expect(route('/agende/ana/form')?.pattern).toBe('/agende/:username/form')
    expect(route('/cancel/t%C3%A9')?.params).toEqual({ token: 'té' })
    expect(route('/booking')?.pattern).toBe('/booking')
    expect(route('/dashboard')).toBeNull()
    expect(route('/agende/')).toBeNull()
    expect(match('/cancel/:token', '/cancel/%E0%A4%A')).toBeNull()
  })

  it('navigates between public pages in place and keeps the query in the URL', async () => {
    function Page() {
      const { username } = useParams()
      const [search, setSearch] = useSearchParams()
      return (
        <div>
          <p>user {username}</p>
          <p>service {search.get('service') ?? '-'}</p>
          <button onClick={() => setSearch({ service: 's1' }, { replace: true })}>escolher</button>
          <Link to="/agende/ana/form">Agendar</Link>
        </div>
      )
    }
    render(<Page />)
    expect(screen.getByText('user ana')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('link', { name: 'Agendar' }))
    expect(window.location.pathname).toBe('/agende/ana/form')
    await userEvent.click(screen.getByRole('button', { name: 'escolher' }))
    expect(window.location.search).toBe('?service=s1')
    expect(screen.getByText('service s1')).toBeInTheDocument()
    act(() => {
      window.history.back()
    })
  })
})

describe('light query cache', () => {
  beforeEach(() => queryClient.clear())

  it('fetches once per key, shares the result, and refetches on invalidation', async () => {
    let n = 0
    const fn = vi.fn(async () => ++n)
    function A() {
      const q = useQuery({ queryKey: ['times', 'ana', '2026-11-30'], queryFn: fn })
      return <p>{q.isLoading ? 'carregando' : `valor ${q.data}`}</p>
    }
    render(
      <>
        <A />
        <A />
      </>,
    )
    expect(screen.getAllByText('carregando')).toHaveLength(2)
    await waitFor(() => expect(screen.getAllByText('valor 1')).toHaveLength(2))
    expect(fn).toHaveBeenCalledTimes(1)
    await act(() => queryClient.invalidateQueries({ queryKey: ['times'] }))
    await waitFor(() => expect(screen.getAllByText('valor 2')).toHaveLength(2))
    await act(() => queryClient.invalidateQueries({ queryKey: ['days'] }))
    expect(fn).toHaveBeenCalledTimes(2)
  })

  it('does not fetch while disabled, and reports errors without retrying when told not to', async () => {
    const fn = vi.fn(async () => {
      throw new Error('falhou')
    })
    function B({ enabled }: { enabled: boolean }) {
      const q = useQuery({ queryKey: ['x'], queryFn: fn, enabled, retry: false })
      if (q.isLoading) return <p>carregando</p>
      return <p>{q.isError ? `erro ${(q.error as Error).message}` : 'parado'}</p>
    }
    const { rerender } = render(<B enabled={false} />)
    expect(screen.getByText('parado')).toBeInTheDocument()
    expect(fn).not.toHaveBeenCalled()
    rerender(<B enabled />)
    await waitFor(() => expect(screen.getByText('erro falhou')).toBeInTheDocument())
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it('setQueryData replaces what the page shows', async () => {
    function C() {
      const q = useQuery({ queryKey: ['cancellation', 't'], queryFn: async () => 'confirmado' })
      return <p>{q.data ?? '...'}</p>
    }
    render(<C />)
    await screen.findByText('confirmado')
    act(() => queryClient.setQueryData(['cancellation', 't'], 'cancelado'))
    expect(screen.getByText('cancelado')).toBeInTheDocument()
  })
})
