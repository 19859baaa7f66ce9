import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session } from '@/test/render'
import type { HealthRecord } from './api/records'
import { RecordFiles } from './RecordFiles'

afterEach(() => vi.unstubAllGlobals())

const record = {
  id: 'r1',
  client: { name: 'Clara', phone: '', email: '' },
  clientCopy: false,
  createdAt: '2026-11-20T10:00:00Z',
  timeZone: 'America/Sao_Paulo',
  entries: [],
  documents: [],
  shares: [],
  files: [{ id: 'f1', name: 'laudo.pdf', contentType: 'application/pdf', size: 2048, signature: 'assinado por Paula Lima, CRP 06/12345, em 20/11/2026 10:00' }],
} as HealthRecord

// A file upload is multipart: fetch is stubbed here as is, not through stubFetch's JSON bodies.
function show(reply: (url: string, method: string) => { status: number; body?: unknown } | undefined) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const r = url === '/api/auth/refresh' ? { status: 200, body: session } : (reply(url, init.method ?? 'GET') ?? { status: 404 })
      return new Response(r.body === undefined ? null : JSON.stringify(r.body), { status: r.status })
    }),
  )
  renderRoutes([{ path: '/x', element: <RecordFiles record={record} client="c1" /> }], '/x')
}

it('lists the attached files with their signature and says an upload it refused, in the server’s words', async () => {
  show((url, method) =>
    url === '/api/records/r1/files' && method === 'POST'
      ? { status: 400, body: { error: { code: 'invalid_file_type', message: 'Anexe um PDF ou uma imagem (JPEG, PNG, WebP ou GIF).' } } }
      : undefined,
  )
  expect(await screen.findByText('laudo.pdf')).toBeInTheDocument()
  expect(screen.getByText(/assinado por Paula Lima, CRP 06\/12345/)).toBeInTheDocument()
  await userEvent.upload(screen.getByLabelText('Anexar arquivo'), new File(['texto'], 'nota.pdf', { type: 'application/pdf' }))
  expect(await screen.findByRole('alert')).toHaveTextContent('Anexe um PDF ou uma imagem')
})

it('sends the chosen file as the form field "file" and says it was attached only after the server kept it', async () => {
  let sent: FormData | undefined
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url === '/api/auth/refresh') return new Response(JSON.stringify(session), { status: 200 })
    if (url === '/api/records/r1/files') {
      sent = init.body as FormData
      return new Response(JSON.stringify({ record: { ...record, files: [...record.files!, { id: 'f2', name: 'exame.png', contentType: 'image/png', size: 10, signature: 's' }] } }), { status: 201 })
    }
    return new Response(null, { status: 404 })
  }))
  renderRoutes([{ path: '/x', element: <RecordFiles record={record} client="c1" /> }], '/x')
  await userEvent.upload(await screen.findByLabelText('Anexar arquivo'), new File(['png'], 'exame.png', { type: 'image/png' }))
  expect(await screen.findByText('Arquivo anexado')).toBeInTheDocument()
  await waitFor(() => expect((sent?.get('file') as File | null)?.name).toBe('exame.png'))
})
