/**
 * A Brazilian phone as it is stored: the DDD and 8 or 9 digits, or null when
 * it is not a phone. Spaces, parentheses, dashes, dots and a + may separate
 * the digits. 12 or 13 digits starting with 55 carry the country code, which
 * is dropped; 10 or 11 digits are DDD and number even when the DDD is 55 (Rio
 * Grande do Sul). The server's twin is brfmt.Phone; both are tested from
 * phone-cases.json.
 */
export function phoneDigits(raw: string): string | null {
  if (/[^\d ().+-]/.test(raw)) return null
  let d = raw.replace(/\D/g, '')
  if ((d.length === 12 || d.length === 13) && d.startsWith('55')) d = d.slice(2)
  return (d.length === 10 || d.length === 11) && d[0] !== '0' ? d : null
}

/** A Brazilian phone in international form, the digits WhatsApp knows it by (brfmt.WhatsAppNumber); null when it is not a phone. */
export function whatsappNumber(raw: string): string | null {
  const d = phoneDigits(raw)
  return d === null ? null : `55${d}`
}

/** A Brazilian phone as people write it: "11987654321" → "(11) 98765-4321"; anything that is not a phone, as it is. */
export function formatPhone(raw: string): string {
  const d = phoneDigits(raw)
  return d === null ? raw : `(${d.slice(0, 2)}) ${d.slice(2, -4)}-${d.slice(-4)}`
}
