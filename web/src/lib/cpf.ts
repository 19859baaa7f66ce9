/** The LGPD reason shown next to every field that asks a payer's CPF (issue 43 §4). */
export const cpfReason = 'Pedimos seu CPF porque a Receita Federal exige o CPF de quem paga em cada recibo de saúde (IN RFB 2.240/2024).'

/** Whether a CPF as typed ("529.982.247-25") has 11 digits with both check digits right (the server checks again). */
export function isCpf(typed: string): boolean {
  const d = typed.replace(/\D/g, '')
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false
  const digit = (n: number) => {
    let sum = 0
    for (let i = 0; i < n; i++) sum += Number(d[i]) * (n + 1 - i)
    return ((sum * 10) % 11) % 10
  }
  return digit(9) === Number(d[9]) && digit(10) === Number(d[10])
}
