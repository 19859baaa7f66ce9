import { fireEvent, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, expect, it, vi } from 'vitest'
import { renderRoutes, session, stubFetch } from '@/test/render'
import { FreeTimes } from './FreeTimes'

afterEach(() => vi.unstubAllGlobals())

function Picker({ appointment }: { appointment?: string }) {
  const [time, setTime] = useState('')
  return (
    <>
      <FreeTimes professionalId="p1" serviceId="s1" date="2026-12-01" appointment={appointment} value={time} onPick={setTime} />
      <output aria-label="Escolhido">{time}</output>
    </>
  )
}

it('lists the server’s free times and a tap chooses one', async () => {
  const calls = stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/agenda/free-times')) return { status: 200, body: { times: ['09:00', '11:00'] } }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <Picker appointment="a1" /> }], '/')
  fireEvent.click(await screen.findByRole('button', { name: '11:00' }))
  expect(screen.getByRole('button', { name: '11:00' })).toHaveAttribute('aria-pressed', 'true')
  expect(screen.getByLabelText('Escolhido')).toHaveTextContent('11:00')
  const asked = calls.find((c) => c.url.startsWith('/api/agenda/free-times'))!
  expect(asked.url).toContain('professional=p1')
  expect(asked.url).toContain('appointment=a1')
  expect(screen.getByRole('group', { name: 'Horários livres' })).toBeInTheDocument()
})

it('says when the date has no free time', async () => {
  stubFetch((c) => {
    if (c.url === '/api/auth/refresh') return { status: 200, body: session }
    if (c.url.startsWith('/api/agenda/free-times')) return { status: 200, body: { times: [] } }
    return undefined
  })
  renderRoutes([{ path: '/', Component: () => <Picker /> }], '/')
  expect(await screen.findByText('Nenhum horário livre nesta data.')).toBeInTheDocument()
})
