import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { toast } from 'sonner'
import { queryKeys } from './api/keys'
import { refreshAppointments } from './api/refresh'
import { refreshedToken } from './auth'

// SPEC §9: reconnect after 1, 2, 5, then every 10 seconds.
const delays = [1000, 2000, 5000, 10000]

/**
 * Keeps a Server-Sent Events stream open while an owner or a professional is signed in and
 * refreshes what changed. EventSource cannot send the bearer token, so the
 * stream is read with fetch.
 */
export function useLiveEvents(enabled: boolean) {
  const qc = useQueryClient()
  useEffect(() => {
    if (!enabled || typeof ReadableStream === 'undefined') return
    let stopped = false
    let attempt = 0
    let controller: AbortController | null = null
    let timer: ReturnType<typeof setTimeout> | null = null

    const connect = async () => {
      controller = new AbortController()
      try {
        let res = await open(refreshedToken.current(), controller.signal)
        if (res.status === 401) res = await open(await refreshedToken.refresh(), controller.signal)
        if (!res.ok || !res.body) throw new Error(`stream ${res.status}`)
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          let cut: number
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut)
            buffer = buffer.slice(cut + 2)
            if (/^event: ready$/m.test(block)) {
              attempt = 0
              // From here every change is heard. Catch up on what changed before: while away after a reconnect, and on
              // the first connection since the screen's first reads, which went out beside the stream's request — a
              // client's booking between the two would otherwise show only with the next event.
              refreshAppointments(qc)
            } else {
              onLiveEvent(qc, block)
            }
          }
        }
      } catch {
        // reconnect below
      }
      if (!stopped) timer = setTimeout(connect, delays[Math.min(attempt++, delays.length - 1)])
    }
    connect()
    return () => {
      stopped = true
      controller?.abort()
      if (timer) clearTimeout(timer)
    }
  }, [enabled, qc])
}

function open(token: string | null, signal: AbortSignal) {
  return fetch('/api/events', { headers: token ? { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } : {}, signal, credentials: 'same-origin' })
}

/** An event's data (api/openapi.yaml, /api/events). */
type LiveData = { self?: boolean; note?: { id: string; title: string; description: string } }

/**
 * Acts on one event of the stream (its text block): reads again what
 * changed and announces a new notification — unless this device made the
 * change itself (`self`): the owner is told what others did (a client, the
 * system, themself on another device), not what they just did here.
 */
export function onLiveEvent(qc: QueryClient, block: string) {
  const event = /^event: (.+)$/m.exec(block)?.[1]
  let data: LiveData = {}
  try {
    data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as LiveData
  } catch {
    // an event without readable data still says what changed
  }
  if (event === 'notifications') {
    void qc.invalidateQueries({ queryKey: queryKeys.notifications })
    if (data.note && !data.self) toast(data.note.title, { id: data.note.id, description: data.note.description })
  } else if (event === 'agenda') {
    refreshAppointments(qc) // a booking, a move, a status, a block or a client changed anywhere
  }
}
