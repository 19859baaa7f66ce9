import { describe, expect, it } from 'vitest'
import { formatPhone, phoneDigits, whatsappNumber } from './phone'
import { whatsappFor } from './whatsapp'
import { cases } from './phone-cases.json'

// The same cases as the server's tests (internal/platform/brfmt), so the
// screens and the server read every number alike.
describe('the one phone rule', () => {
  it.each(cases)('$in: $why', (c) => {
    expect(phoneDigits(c.in)).toBe(c.national)
    expect(whatsappNumber(c.in)).toBe(c.whatsapp)
    expect(whatsappFor(c.in)).toBe(c.whatsapp === null ? undefined : `https://wa.me/${c.whatsapp}`)
  })
})

describe('formatPhone', () => {
  it('writes a stored phone as people write it, and leaves anything else as it is', () => {
    expect(formatPhone('11987654321')).toBe('(11) 98765-4321')
    expect(formatPhone('1132654321')).toBe('(11) 3265-4321')
    expect(formatPhone('+55 21 99876-5432')).toBe('(21) 99876-5432')
    expect(formatPhone('ramal 12')).toBe('ramal 12')
  })
})
