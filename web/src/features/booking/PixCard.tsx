import { useState } from 'react'
import type { Schemas } from '@/lib/api/client'
import { formatBRL } from '@/lib/format'

/** When the hold ends, in the visitor's own clock: "10:30 de 23/11". */
function deadline(iso: string): string {
  const d = new Date(iso)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getHours())}:${two(d.getMinutes())} de ${two(d.getDate())}/${two(d.getMonth() + 1)}`
}

/**
 * The deposit to pay: the amount, who receives it, the deadline, the QR code
 * (GET /api/public/bookings/{token}/pix.png) and the "Pix Copia e Cola" text
 * with a copy button. Loaded lazily by the confirmation card and the private
 * page, so the booking page's first visit does not carry it.
 */
export default function PixCard({
  token,
  deposit,
  email,
  charge,
}: {
  token: string
  deposit: Schemas['BookingDeposit']
  email?: string
  /** The private page's "Gerar o código Pix", for a deposit whose charge failed (opening a link never charges). */
  charge?: { run: () => void; pending: boolean }
}) {
  const [copied, setCopied] = useState('')
  const copy = () =>
    navigator.clipboard.writeText(deposit.copyPaste).then(
      () => setCopied('Código Pix copiado!'),
      () => setCopied('Não foi possível copiar: toque e segure o código para copiá-lo.'),
    )
  return (
    <div className="mt-4 rounded-xl border border-amber-300 bg-white p-3 text-sm dark:border-amber-700 dark:bg-stone-900">
      <p className="font-semibold">
        Pague o sinal de {formatBRL(deposit.amountCents)} via Pix até {deadline(deposit.expiresAt)}
      </p>
      <p className="mt-1 text-stone-700 dark:text-stone-300">Sem o pagamento até lá, o horário é liberado.</p>
      {deposit.receiver ? <p className="mt-1 text-stone-700 dark:text-stone-300">Recebedor: {deposit.receiver}</p> : null}
      {deposit.copyPaste ? (
        <>
          <img src={`/api/public/bookings/${encodeURIComponent(token)}/pix.png`} alt="QR Code do Pix" width={220} height={220} className="mx-auto mt-3 rounded bg-white" />
          <label htmlFor="pix-copia-e-cola" className="mt-3 block font-medium">
            Pix Copia e Cola
          </label>
          <textarea id="pix-copia-e-cola" readOnly rows={3} value={deposit.copyPaste} className="mt-1 w-full resize-none break-all rounded-lg border border-stone-300 bg-stone-50 p-2 font-mono text-xs dark:border-stone-700 dark:bg-stone-800" />
          <button type="button" onClick={() => void copy()} className="mt-2 h-9 rounded-lg bg-brand-700 px-3 font-medium text-white hover:bg-brand-800">
            Copiar código Pix
          </button>
          <p role="status" className="mt-1 text-xs">
            {copied}
          </p>
        </>
      ) : charge ? (
        <>
          <p className="mt-2" role="status">Gerando o código Pix… Ele aparece aqui em instantes; se demorar, toque abaixo.</p>
          <button type="button" onClick={charge.run} disabled={charge.pending} className="mt-2 h-9 rounded-lg bg-brand-700 px-3 font-medium text-white hover:bg-brand-800 disabled:opacity-60">
            {charge.pending ? 'Gerando...' : 'Gerar o código Pix'}
          </button>
        </>
      ) : (
        <p className="mt-2" role="status">Gerando o código Pix… Ele aparece aqui em instantes, e também no seu link de agendamento.</p>
      )}
      {deposit.policy ? <p className="mt-3 text-xs text-stone-600 dark:text-stone-400">{deposit.policy}</p> : null}
      {email ? <p className="mt-3">{`Enviamos o Pix para ${email}. Quando o sinal for recebido, você receberá a confirmação por e-mail, com o convite para a sua agenda.`}</p> : null}
    </div>
  )
}
