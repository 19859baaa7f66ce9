import { Mail, MessageCircle, Printer } from 'lucide-react'
import { useParams } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { clientPathOf } from '@/components/client-link'
import { paymentState } from '@/components/payment-toggle'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api/client'
import { useClientStatement, useEmailStatement } from '@/lib/api/endpoints/payments'
import { copyText } from '@/lib/clipboard'
import { brDate, formatBRL, monthLabel } from '@/lib/format'

/**
 * A client's monthly statement (issue 43 §4): the attended sessions of the
 * month, paid or not, the totals, and the owner's Pix for what is due —
 * printable (the page's chrome and actions stay off paper), sent by e-mail
 * through the outbox, or opened in the owner's WhatsApp with the text
 * prefilled (the owner sends it from their own phone).
 */
export default function StatementPage() {
  const { key = '', month = '' } = useParams()
  const { data: s, isLoading, isError, error } = useClientStatement(key, month)
  const email = useEmailStatement()
  const [year, mm] = month.split('-').map(Number)
  const title = year && mm ? `Extrato de ${monthLabel(year, mm).toLowerCase()}` : 'Extrato'
  if (isLoading) return <PageSpinner />
  if (isError || !s)
    return (
      <div className="mx-auto grid max-w-3xl gap-4">
        <BackLink to={clientPathOf(key)}>Voltar para o cliente</BackLink>
        <p role="alert">{errorMessage(error, 'Não foi possível carregar o extrato.')}</p>
      </div>
    )
  const send = () =>
    email.mutate(
      { key, month },
      {
        onSuccess: (r) => {
          if (r.notice === 'email') toast.success('Extrato enviado por e-mail', { description: `Para ${s.client.email}.` })
        },
        onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível enviar o extrato.') }),
      },
    )
  return (
    <div className="mx-auto grid max-w-3xl gap-6 print:max-w-none print:gap-3">
      <div className="print:hidden">
        <BackLink to={clientPathOf(key)}>Voltar para o cliente</BackLink>
      </div>
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="text-sm wrap-break-word">
          {s.client.name} · {s.practice}
        </p>
      </header>
      <div className="flex flex-wrap gap-2 print:hidden">
        <Button type="button" variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden /> Imprimir
        </Button>
        {s.client.email ? (
          <Button type="button" variant="outline" onClick={send} disabled={email.isPending}>
            <Mail aria-hidden /> {email.isPending ? 'Enviando...' : 'Enviar por e-mail'}
          </Button>
        ) : null}
        {s.whatsappUrl ? (
          <Button asChild variant="outline">
            <a href={s.whatsappUrl} target="_blank" rel="noreferrer">
              <MessageCircle aria-hidden /> Abrir no WhatsApp
            </a>
          </Button>
        ) : null}
      </div>
      <Card className="print:border-0 print:shadow-none">
        <CardHeader>
          <CardTitle>Sessões</CardTitle>
        </CardHeader>
        <CardContent>
          {s.lines.length === 0 ? (
            <p className="text-sm">Nenhuma sessão realizada neste mês.</p>
          ) : (
            <table className="w-full text-left text-sm" aria-label="Sessões do mês">
              <thead>
                <tr className="border-b border-stone-200 dark:border-stone-800">
                  <th className="py-1 pr-2 font-medium">Data</th>
                  <th className="py-1 pr-2 font-medium">Serviço</th>
                  <th className="py-1 pr-2 text-right font-medium">Valor</th>
                  <th className="py-1 font-medium">Situação</th>
                </tr>
              </thead>
              <tbody>
                {s.lines.map((l) => (
                  <tr key={l.appointmentId} className="border-b border-stone-100 align-top dark:border-stone-800">
                    <td className="py-1 pr-2">
                      <span className="whitespace-nowrap">{brDate(l.date)}</span> <span className="whitespace-nowrap">{l.time}</span>
                    </td>
                    <td className="py-1 pr-2">{l.service}</td>
                    <td className="py-1 pr-2 text-right whitespace-nowrap">{formatBRL(l.priceCents)}</td>
                    <td className="py-1 wrap-anywhere">{paymentState(l)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <dl className="mt-4 grid grid-cols-3 gap-2 text-sm" aria-label="Totais">
            <div>
              <dt className="text-stone-600 dark:text-stone-400">Total</dt>
              <dd className="text-lg font-bold">{formatBRL(s.totalCents)}</dd>
            </div>
            <div>
              <dt className="text-stone-600 dark:text-stone-400">Pago</dt>
              <dd className="text-lg font-bold">{formatBRL(s.paidCents)}</dd>
            </div>
            <div>
              <dt className="text-stone-600 dark:text-stone-400">A pagar</dt>
              <dd className="text-lg font-bold">{formatBRL(s.dueCents)}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
      {s.pix ? (
        <Card className="break-inside-avoid print:border-0 print:shadow-none">
          <CardHeader>
            <CardTitle>Pague {formatBRL(s.dueCents)} com Pix</CardTitle>
          </CardHeader>
          <CardContent className="grid justify-items-start gap-3 text-sm">
            <img src={s.pix.qrCode} alt={`QR Code Pix de ${formatBRL(s.dueCents)} para ${s.pix.receiver}`} width={200} height={200} />
            <p>Recebedor: {s.pix.receiver}</p>
            <label htmlFor="statement-pix" className="font-medium">
              Pix Copia e Cola
            </label>
            <div className="flex w-full gap-2">
              <Input id="statement-pix" readOnly value={s.pix.copyPaste} onFocus={(e) => e.currentTarget.select()} className="min-w-0 print:hidden" />
              <Button type="button" variant="outline" className="print:hidden" onClick={() => void copyText(s.pix!.copyPaste, 'Código Pix copiado', 'Copie o código manualmente.')}>
                Copiar
              </Button>
            </div>
            <p className="hidden break-all text-xs print:block">{s.pix.copyPaste}</p>
          </CardContent>
        </Card>
      ) : s.dueCents > 0 ? (
        <p className="text-sm text-stone-600 print:hidden dark:text-stone-400">Cadastre sua chave Pix em Perfil → Sinal via Pix para o extrato trazer o QR Code.</p>
      ) : null}
    </div>
  )
}
