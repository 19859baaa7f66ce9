import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { refreshAppointments } from './refresh'

/** An active query of the agenda whose reads the test answers by hand, in any order. */
function agenda(qc: QueryClient, key: readonly unknown[]) {
  const answers: ((v: string) => void)[] = []
  const observer = new QueryObserver(qc, { queryKey: key, queryFn: () => new Promise<string>((resolve) => answers.push(resolve)), retry: false })
  const stop = observer.subscribe(() => {})
  return { answers, observer, stop }
}

describe('refreshAppointments', () => {
  it('reads again a first read still on its way when a change is announced (its answer may be from before the change)', async () => {
    const qc = new QueryClient()
    const a = agenda(qc, ['appointments', 'grid', { from: '2026-11-27' }])
    await vi.waitFor(() => expect(a.answers).toHaveLength(1))
    refreshAppointments(qc) // a client's booking, announced while the next day's grid is being read
    await vi.waitFor(() => expect(a.answers).toHaveLength(2))
    a.answers[1]('with the booking')
    a.answers[0]('before the booking') // the older read answers last: it must not win
    await vi.waitFor(() => expect(a.observer.getCurrentResult().data).toBe('with the booking'))
    await new Promise((r) => setTimeout(r, 10))
    expect(a.observer.getCurrentResult().data).toBe('with the booking')
    a.stop()
  })

  it('reads again a query that has data, once', async () => {
    const qc = new QueryClient()
    const a = agenda(qc, ['appointments', 'grid', { from: '2026-11-26' }])
    await vi.waitFor(() => expect(a.answers).toHaveLength(1))
    a.answers[0]('first')
    await vi.waitFor(() => expect(a.observer.getCurrentResult().data).toBe('first'))
    refreshAppointments(qc)
    await vi.waitFor(() => expect(a.answers).toHaveLength(2))
    a.answers[1]('second')
    await vi.waitFor(() => expect(a.observer.getCurrentResult().data).toBe('second'))
    expect(a.answers).toHaveLength(2)
    a.stop()
  })

  it('leaves alone a read of something else', async () => {
    const qc = new QueryClient()
    const a = agenda(qc, ['services'])
    await vi.waitFor(() => expect(a.answers).toHaveLength(1))
    refreshAppointments(qc)
    await new Promise((r) => setTimeout(r, 10))
    expect(a.answers).toHaveLength(1)
    a.stop()
  })
})
