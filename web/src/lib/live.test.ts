import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderHook } from '@testing-library/react'
import { createElement, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const toast = vi.hoisted(() => vi.fn())
vi.mock('sonner', () => ({ toast }))
vi.mock('./auth', () => ({ refreshedToken: { current: () => 'token', refresh: async () => 'token' } }))

import { onLiveEvent, useLiveEvents } from './live'

const note = { id: 'n1', title: 'Agendamento criado', description: 'Maria: Corte com Ana em 30/11/2026 às 09:00, registrado na agenda.' }
const block = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify(data)}`

describe('onLiveEvent', () => {
  let qc: QueryClient
  beforeEach(() => {
    toast.mockReset()
    qc = new QueryClient()
    vi.spyOn(qc, 'invalidateQueries')
  })

  it('does not toast a change the tab made itself, but still reads the notifications again', () => {
    onLiveEvent(qc, block('notifications', { self: true, note }))
    expect(toast).not.toHaveBeenCalled()
    expect(qc.invalidateQueries).toHaveBeenCalledWith({ queryKey: ['notifications'] })
  })

  it('toasts what another device of the owner did', () => {
    onLiveEvent(qc, block('notifications', { self: false, note }))
    expect(toast).toHaveBeenCalledWith('Agendamento criado', { id: 'n1', description: note.description })
  })

  it("toasts a client's booking", () => {
    onLiveEvent(qc, block('notifications', { self: false, note: { id: 'n2', title: 'Novo agendamento', description: 'Paula Reis agendou Consulta' } }))
    expect(toast).toHaveBeenCalledWith('Novo agendamento', { id: 'n2', description: 'Paula Reis agendou Consulta' })
  })

  it('reads again without a toast when notifications were only read or removed', () => {
    onLiveEvent(qc, block('notifications', { self: false }))
    onLiveEvent(qc, 'event: notifications\ndata: {}')
    expect(toast).not.toHaveBeenCalled()
    expect(qc.invalidateQueries).toHaveBeenCalledTimes(2)
  })

  it('refreshes what counts appointments on an agenda event, from itself or not', () => {
    onLiveEvent(qc, block('agenda', { self: true }))
    expect(toast).not.toHaveBeenCalled()
    expect(qc.invalidateQueries).toHaveBeenCalledWith({ queryKey: ['appointments'] })
  })
})

describe('useLiveEvents', () => {
  afterEach(() => vi.unstubAllGlobals())

  it("catches up on the first 'ready' too: what changed between the screen's first reads and the stream listening is read again", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('retry: 1000\nevent: ready\ndata: {}\n\n'))
      },
    })
    vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })))
    const qc = new QueryClient()
    const invalidate = vi.spyOn(qc, 'invalidateQueries')
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: qc }, children)
    const { unmount } = renderHook(() => useLiveEvents(true), { wrapper })
    await vi.waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['appointments'] }))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['notifications'] })
    unmount()
  })
})
