import { describe, expect, it } from 'vitest'
import type { Schemas } from '@/lib/api/client'
import { depositPoll } from './get-cancellation'

const page = (deposit: Partial<Schemas['BookingDeposit']> | null) => ({ deposit }) as Schemas['Cancellation']

describe('the private page while a deposit is due', () => {
  it('asks often until the Pix code is ready, then now and then until paid or released', () => {
    expect(depositPoll(page({ state: 'pending', copyPaste: '' }))).toBe(3000)
    expect(depositPoll(page({ state: 'pending', copyPaste: '000201…' }))).toBe(15000)
    expect(depositPoll(page({ state: 'paid', copyPaste: '000201…' }))).toBe(false)
    expect(depositPoll(page(null))).toBe(false)
    expect(depositPoll(undefined)).toBe(false)
  })
})
