import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { errorMessage } from '@/lib/api/client'
import { useDepositReceived, usePendingDeposits } from '@/lib/api/endpoints/deposits'
import { brDate, formatBRL } from '@/lib/format'

/** Minutes and hours left until a deadline: "12 min", "1 h 05 min", "encerrado". */
export function timeLeft(expiresAt: string, now: number): string {
  const minutes = Math.ceil((new Date(expiresAt).getTime() - now) / 60000)
  if (minutes <= 0) return 'prazo encerrado'
  if (minutes < 60) return `${minutes} min`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

/**
 * 'Sinais pendentes' (issue 29): the bookings holding their time until the
 * deposit is paid, soonest deadline first, each with 'Sinal recebido'.
 * Hidden while there is none.
 */
export function PendingDeposits() {
  const { data } = usePendingDeposits()
  const received = useDepositReceived()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), 30000)
    return () => window.clearInterval(t)
  }, [])
  if (!data || data.length === 0) return null
  const confirm = (id: string, client: string) =>
    received.mutate(id, {
      onSuccess: () => toast.success('Sinal recebido', { description: `Agendamento de ${client} confirmado; enviamos a confirmação.` }),
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível confirmar o sinal.') }),
    })
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sinais pendentes</CardTitle>
        <CardDescription>Horários reservados aguardando o sinal via Pix. Confira o pagamento no seu banco e toque em “Sinal recebido”.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2">
          {data.map((d) => (
            <li key={d.appointmentId} className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-300 p-3 dark:border-amber-800">
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">{d.clientName}</span>
                {/* The date and time first and never cut; a long service name truncates instead. */}
                <Link to={`/appointment/${d.appointmentId}`} className="flex min-w-0 gap-1 text-sm text-stone-600 hover:underline dark:text-stone-400">
                  <span className="shrink-0 font-medium text-stone-900 tabular-nums dark:text-stone-100">
                    {brDate(d.date)} às {d.time}
                  </span>
                  <span aria-hidden>·</span>
                  <span className="min-w-0 truncate">{d.serviceName}</span>
                </Link>
                <span className="block text-sm">
                  <span className="font-semibold">{formatBRL(d.amountCents)}</span> · resta {timeLeft(d.expiresAt, now)}
                </span>
              </span>
              <Button type="button" size="sm" onClick={() => confirm(d.appointmentId, d.clientName)} disabled={received.isPending} aria-label={`Sinal recebido de ${d.clientName}`}>
                Sinal recebido
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
