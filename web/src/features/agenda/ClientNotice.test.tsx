import { screen } from '@testing-library/react'
import { expect, it } from 'vitest'
import { renderRoutes } from '@/test/render'
import { ClientNotice } from './ClientNotice'

const a = { id: 'a1', clientName: 'Bruno', clientPhone: '(11) 98765-4321', serviceName: 'Limpeza', professionalName: 'Dra. Ana', date: '2026-11-26', time: '14:00' }

// Issue 41 §4: a cancellation only a push notification carried says so, and
// keeps the WhatsApp message at hand (a notification may go unseen).
it('says a notification alone carried the notice, and offers the message by hand', () => {
  renderRoutes([{ path: '/', Component: () => <ClientNotice kind="cancel" channel="push" appointment={a} /> }], '/')
  expect(screen.getByText('Avisamos por notificação no celular do cliente.')).toBeInTheDocument()
  expect(screen.getByRole('link', { name: 'Enviar o cancelamento pelo WhatsApp' }).getAttribute('href')).toMatch(/^https:\/\/wa\.me\/5511987654321/)
})

it('says e-mail alone with no message by hand', () => {
  renderRoutes([{ path: '/', Component: () => <ClientNotice kind="cancel" channel="email" appointment={a} /> }], '/')
  expect(screen.getByText('Avisamos por e-mail.')).toBeInTheDocument()
  expect(screen.queryByRole('link')).not.toBeInTheDocument()
})
