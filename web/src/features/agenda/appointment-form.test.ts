import { describe, expect, it } from 'vitest'
import { phoneDigits } from '@/lib/form'
import { appointmentFields, appointmentSchema } from './appointment-form'

const valid = { ...appointmentFields({ date: '2026-11-25', time: '10:00', professionalId: 'p1' }), clientName: '  Paula  ', clientPhone: '(11) 97777-6666', serviceId: 's1' }

describe('the owner appointment form', () => {
  it('reads Brazilian phones as the server does', () => {
    expect(phoneDigits('(11) 97777-6666')).toBe('11977776666')
    expect(phoneDigits('+55 11 3333-4444')).toBe('1133334444')
    expect(phoneDigits('123')).toBeNull()
    expect(phoneDigits('11 9777x-6666')).toBeNull()
    expect(phoneDigits('(01) 97777-6666')).toBeNull()
  })

  it('sends the trimmed body, and asks for a phone or an e-mail beside the phone', () => {
    const ok = appointmentSchema.safeParse(valid)
    expect(ok.success && ok.data).toMatchObject({ clientName: 'Paula', professionalId: 'p1', serviceId: 's1', date: '2026-11-25', time: '10:00', notifyClient: false })
    const none = appointmentSchema.safeParse({ ...valid, clientPhone: '', clientEmail: '' })
    expect(none.success).toBe(false)
    expect(none.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual(['clientPhone', 'Informe o telefone ou o e-mail do cliente.'])
    const email = appointmentSchema.safeParse({ ...valid, clientPhone: '', clientEmail: 'paula@example.com' })
    expect(email.success).toBe(true)
  })

  it('says which field is wrong', () => {
    const bad = appointmentSchema.safeParse({ ...valid, clientName: ' ', time: '25:00', serviceId: '', clientEmail: 'nope' })
    const byField = Object.fromEntries((bad.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]))
    expect(byField).toMatchObject({
      clientName: 'Informe o nome do cliente.',
      time: 'Informe o horário (HH:MM).',
      serviceId: 'Escolha o serviço.',
      clientEmail: 'E-mail inválido.',
    })
  })
})
