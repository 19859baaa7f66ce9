import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { zodResolver as realResolver } from '@hookform/resolvers/zod'
import { Slot as RealSlot } from '@radix-ui/react-slot'
import { cva as realCva } from 'class-variance-authority'
import { CircleCheck, LoaderCircle, MessageCircle } from 'lucide-react'
import * as circleCheck from 'lucide-react/icons/circle-check'
import * as loaderCircle from 'lucide-react/icons/loader-circle'
import * as messageCircle from 'lucide-react/icons/message-circle'
import type { ComponentProps, ComponentType } from 'react'
import { useForm as realUseForm } from 'react-hook-form'
import * as z from 'zod/mini'
import { emailText, requiredText } from '@/lib/form'
import { queryDefaults } from '@/lib/query-defaults'
import { buttonStyles } from '@/components/ui/button'
import { cva as standInCva } from './cva'
import { useForm as standInUseForm } from './form'
import createLucideIcon from './lucide'
import { queryClient, useMutation, useQuery } from './query'
import { zodResolver as standInResolver } from './resolver'
import { Link, match, route, useLocation, useParams, useSearchParams } from './router'
import { Slot as StandInSlot } from './slot'

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

  it("carries a Link's state to the next page in the history entry, not the address", async () => {
    function Page() {
      const l = useLocation()
      return (
        <div>
          <p>state {JSON.stringify(l.state)}</p>
          <Link to="/agende/ana/lista-de-espera?date=2026-11-24" state={{ name: 'Paula' }}>
            Lista
          </Link>
        </div>
      )
    }
    render(<Page />)
    await userEvent.click(screen.getByRole('link', { name: 'Lista' }))
    expect(window.location.search).toBe('?date=2026-11-24')
    expect(screen.getByText('state {"name":"Paula"}')).toBeInTheDocument()
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

  it('asks again at the interval the data so far decides, and stops when it says false', async () => {
    let n = 0
    const fn = vi.fn(async () => ++n)
    function A() {
      const q = useQuery({ queryKey: ['poll'], queryFn: fn, refetchInterval: (query) => ((query.state.data as number | undefined) ?? 0) < 3 && 20 })
      return <p>{`valor ${q.data ?? '-'}`}</p>
    }
    render(<A />)
    await waitFor(() => expect(screen.getByText('valor 3')).toBeTruthy())
    await new Promise((r) => setTimeout(r, 100))
    expect(fn).toHaveBeenCalledTimes(3)
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

  it('retries a failed query exactly once by default, as the full app does', async () => {
    expect(queryDefaults.retry).toBe(1)
    const fn = vi.fn(async () => {
      throw new Error('fora do ar')
    })
    function D() {
      const q = useQuery({ queryKey: ['profile', 'ana'], queryFn: fn })
      return <p>{q.isError ? `erro ${q.error?.message}` : 'carregando'}</p>
    }
    render(<D />)
    await waitFor(() => expect(screen.getByText('erro fora do ar')).toBeInTheDocument(), { timeout: 3000 })
    expect(fn).toHaveBeenCalledTimes(2) // the first try and one retry, a second apart
    await new Promise((r) => setTimeout(r, 1500))
    expect(fn).toHaveBeenCalledTimes(2)
  })

  it('serves data from the cache while it is fresh (staleTime), then refetches on the next mount', async () => {
    expect(queryDefaults.staleTime).toBe(30_000)
    let n = 0
    const fn = vi.fn(async () => ++n)
    function E() {
      const q = useQuery({ queryKey: ['days', 'ana'], queryFn: fn })
      return <p>{q.data === undefined ? 'carregando' : `valor ${q.data}`}</p>
    }
    const first = render(<E />)
    await screen.findByText('valor 1')
    first.unmount()
    const now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 29_000)
    const second = render(<E />)
    expect(screen.getByText('valor 1')).toBeInTheDocument() // no loading state, no request
    await new Promise((r) => setTimeout(r, 20))
    expect(fn).toHaveBeenCalledTimes(1)
    second.unmount()
    clock.mockReturnValue(now + 31_000)
    render(<E />)
    expect(screen.getByText('valor 1')).toBeInTheDocument() // the stale data shows while it refetches
    await screen.findByText('valor 2')
    expect(fn).toHaveBeenCalledTimes(2)
    clock.mockRestore()
  })

  it('runs mutations: callbacks of the hook first, failures reported, not retried', async () => {
    const fn = vi.fn(async (name: string) => {
      if (name === 'x') throw new Error('recusado')
      return `ok ${name}`
    })
    const events: string[] = []
    function F() {
      const m = useMutation({ mutationFn: fn, onSuccess: (d) => void events.push(`hook ${d}`), onError: (e) => void events.push(`hook ${e.message}`) })
      return (
        <div>
          <button onClick={() => m.mutate('ana', { onSuccess: (d) => void events.push(`call ${d}`) })}>ana</button>
          <button onClick={() => m.mutate('x', { onError: (e) => void events.push(`call ${e.message}`) })}>x</button>
          <p>{m.isPending ? 'enviando' : m.isError ? `erro ${m.error?.message}` : m.isSuccess ? m.data : 'parado'}</p>
        </div>
      )
    }
    render(<F />)
    await userEvent.click(screen.getByRole('button', { name: 'ana' }))
    await screen.findByText('ok ana')
    await userEvent.click(screen.getByRole('button', { name: 'x' }))
    await screen.findByText('erro recusado')
    expect(events).toEqual(['hook ok ana', 'call ok ana', 'hook recusado', 'call recusado'])
    expect(fn).toHaveBeenCalledTimes(2)
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

// The form stand-in is checked against react-hook-form itself: the same form,
// typed into the same way, must show the same errors and submit the same body.
describe('light form', () => {
  const schema = z.pipe(
    z.object({ name: requiredText('Informe seu nome.'), email: emailText('Informe um e-mail válido.') }),
    z.transform((v) => ({ clientName: v.name, clientEmail: v.email })),
  )
  type Fields = { name: string; email: string }
  type Impl = {
    useForm: (p: { resolver: ReturnType<typeof standInResolver<Fields, { clientName: string; clientEmail: string }>>; defaultValues: Fields; mode?: 'onSubmit' | 'onChange' }) => {
      register: (n: keyof Fields) => object
      handleSubmit: (ok: (v: { clientName: string; clientEmail: string }) => void, bad?: () => void) => (e?: { preventDefault: () => void }) => Promise<void>
      setError: (n: `root.${string}`, e: { type: string; message: string }) => void
      reset: () => void
      watch: (n: keyof Fields) => string
      formState: { errors: { name?: { message?: string }; email?: { message?: string }; root?: Record<string, { message?: string }> }; isValid: boolean }
    }
    resolver: typeof standInResolver
  }
  const impls: [string, Impl][] = [
    ['react-hook-form', { useForm: realUseForm as unknown as Impl['useForm'], resolver: realResolver as unknown as typeof standInResolver }],
    ['stand-in', { useForm: standInUseForm as unknown as Impl['useForm'], resolver: standInResolver }],
  ]

  it.each(impls)('%s: errors after submit, re-checked as corrected; the output submitted; server error and reset', async (_, impl) => {
    const sent: unknown[] = []
    const invalid = vi.fn()
    function F({ mode }: { mode?: 'onChange' }) {
      const f = impl.useForm({ resolver: impl.resolver(schema), defaultValues: { name: '', email: '' }, mode })
      const e = f.formState.errors
      return (
        <form onSubmit={f.handleSubmit((v) => void sent.push(v), invalid)} noValidate>
          <label htmlFor="n">Nome</label>
          <input id="n" {...f.register('name')} />
          <p>{e.name?.message ?? 'nome ok'}</p>
          <label htmlFor="m">E-mail</label>
          <input id="m" {...f.register('email')} />
          <p>{e.email?.message ?? 'email ok'}</p>
          <p>{f.formState.isValid ? 'válido' : 'inválido'}</p>
          <p>digitado {f.watch('name')}</p>
          <p>{e.root?.server?.message ?? 'sem erro'}</p>
          <button type="submit">Enviar</button>
          <button type="button" onClick={() => f.setError('root.server', { type: 'server', message: 'Recusado.' })}>recusar</button>
          <button type="button" onClick={() => f.reset()}>limpar</button>
        </form>
      )
    }
    const user = userEvent.setup()
    const { unmount } = render(<F />)
    await user.type(screen.getByLabelText('E-mail'), 'x')
    expect(screen.getByText('email ok')).toBeInTheDocument() // not before the first submit
    await user.click(screen.getByRole('button', { name: 'Enviar' }))
    expect(await screen.findByText('Informe seu nome.')).toBeInTheDocument()
    expect(screen.getByText('Informe um e-mail válido.')).toBeInTheDocument()
    expect(invalid).toHaveBeenCalledTimes(1)
    await user.type(screen.getByLabelText('Nome'), ' Ana ')
    expect(await screen.findByText('nome ok')).toBeInTheDocument()
    expect(screen.getByText(/^digitado +Ana *$/)).toBeInTheDocument()
    await user.clear(screen.getByLabelText('E-mail'))
    await user.click(screen.getByRole('button', { name: 'Enviar' }))
    await waitFor(() => expect(sent).toEqual([{ clientName: 'Ana', clientEmail: '' }]))
    await user.click(screen.getByRole('button', { name: 'recusar' }))
    expect(await screen.findByText('Recusado.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'limpar' }))
    await waitFor(() => expect(screen.getByLabelText('Nome')).toHaveValue(''))
    expect(screen.getByText('sem erro')).toBeInTheDocument()
    unmount()

    render(<F mode="onChange" />)
    await waitFor(() => expect(screen.getByText('inválido')).toBeInTheDocument())
    await user.type(screen.getByLabelText('Nome'), 'A')
    expect(await screen.findByText('válido')).toBeInTheDocument()
    await user.type(screen.getByLabelText('E-mail'), 'x')
    expect(await screen.findByText('Informe um e-mail válido.')).toBeInTheDocument()
    expect(screen.getByText('inválido')).toBeInTheDocument()
  })
})

describe('light Slot', () => {
  it('renders an asChild button as Radix does: the child element, the classes joined, the child\'s props over the slot\'s', () => {
    const html = (S: typeof StandInSlot) => {
      const { container, unmount } = render(
        <S className="inline-flex h-9 px-3" aria-label="Enviar" data-x="slot" title="do slot">
          <a href="/cancel/abc" className="underline" title="do link" target="_blank" rel="noreferrer">
            Enviar para meu WhatsApp
          </a>
        </S>,
      )
      const out = container.innerHTML
      unmount()
      return out
    }
    const real = html(RealSlot as typeof StandInSlot)
    expect(html(StandInSlot)).toBe(real)
    expect(real).toContain('title="do link"')
  })
})

describe('light cva', () => {
  it("gives Button every variant and size in the real cva's classes and order", () => {
    const { base, config } = buttonStyles
    const real = realCva(base, config)
    const light = standInCva(base, config)
    const picks = <K extends keyof typeof config.variants>(k: K) => [undefined, null, ...Object.keys(config.variants[k])] as (keyof (typeof config.variants)[K] | null | undefined)[]
    let n = 0
    for (const variant of picks('variant'))
      for (const size of picks('size')) {
        expect(light({ variant, size }), `${String(variant)} ${String(size)}`).toBe(real({ variant, size }))
        n++
      }
    expect(light()).toBe(real())
    expect(n).toBe(7 * 6)
  })
})

describe('light lucide icons', () => {
  type IconData = Parameters<typeof createLucideIcon>[0]
  const data = (m: object) => (m as { __iconData: IconData }).__iconData
  const icons: [string, ComponentType<ComponentProps<typeof CircleCheck>>, IconData][] = [
    ['CircleCheck (an alias: CheckCircle2)', CircleCheck, data(circleCheck)],
    ['LoaderCircle', LoaderCircle, data(loaderCircle)],
    ['MessageCircle', MessageCircle, data(messageCircle)],
  ]
  const props: ComponentProps<typeof CircleCheck>[] = [
    {},
    { className: 'size-4', 'aria-hidden': true },
    { className: ' animate-spin  text-brand-700 lucide ', 'aria-hidden': 'true' },
    { 'aria-label': 'Enviado' },
    { role: 'img' },
    { size: 16, color: 'red', strokeWidth: 1.5, id: 'i' },
    { width: 20, height: 18 },
  ]

  it.each(icons)('%s renders the same <svg> as lucide-react for the props the public pages pass', (_, Real, icon) => {
    const Light = createLucideIcon(icon)
    const html = (I: typeof Real, p: ComponentProps<typeof CircleCheck>, label?: string) => {
      const { container, unmount } = render(<I {...p}>{label && <title>{label}</title>}</I>)
      const out = container.innerHTML
      unmount()
      return out
    }
    for (const p of props) expect(html(Light, p), JSON.stringify(p)).toBe(html(Real, p))
    expect(html(Light, {}, 'Carregando')).toBe(html(Real, {}, 'Carregando'))
    expect(html(Real, {})).toContain('aria-hidden="true"')
  })

  it('is never given what it does not implement: a page with absoluteStrokeWidth, nonScalingStroke or a LucideProvider fails here', () => {
    const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}', '!/src/agende/lucide.ts'], { query: '?raw', import: 'default', eager: true })
    const found = Object.entries(sources).filter(([, text]) => /absoluteStrokeWidth|nonScalingStroke|LucideProvider/.test(text)).map(([file]) => file)
    expect(Object.keys(sources).length).toBeGreaterThan(100)
    expect(found).toEqual([])
  })
})
