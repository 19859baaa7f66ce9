/** A phone as a WhatsApp link, adding Brazil's 55 when missing (SPEC §2 Agenda). */
export function whatsappFor(phone: string): string {
  const digits = phone.replace(/\D/g, '')
  return `https://wa.me/${digits.startsWith('55') ? digits : `55${digits}`}`
}
