import { Download } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api/client'
import { brDate, formatBRL } from '@/lib/format'
import { saveFile } from '@/lib/save-file'
import { useExportClients } from './api/export-clients'
import { useClients } from './api/list-clients'

const PAGE = 50

export default function ClientsPage() {
  const [page, setPage] = useState(0)
  const { data, isLoading, isError } = useClients(PAGE, page * PAGE)
  const exporting = useExportClients()
  const busy = exporting.isPending
  useEffect(() => {
    if (isError) toast.error('Erro', { description: 'Não foi possível carregar os clientes.' })
  }, [isError])

  function download() {
    exporting.mutate(undefined, {
      onSuccess: saveFile,
      onError: (e) => toast.error('Erro', { description: errorMessage(e, 'Não foi possível exportar os clientes. Tente novamente.') }),
    })
  }

  const total = data?.total ?? 0
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <BackLink />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Clientes</h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">{total === 1 ? '1 cliente' : `${total} clientes`}</p>
        </div>
        <Button variant="outline" onClick={download} disabled={busy || total === 0}>
          <Download aria-hidden /> {busy ? 'Exportando...' : 'Exportar CSV'}
        </Button>
      </div>
      <Card className="overflow-x-auto">
        {isLoading ? (
          <div className="p-10 text-center">
            <Spinner />
          </div>
        ) : total === 0 ? (
          <p className="p-10 text-center text-stone-600 dark:text-stone-400">Nenhum cliente ainda. Eles aparecem aqui a partir dos agendamentos.</p>
        ) : (
          <table className="w-full min-w-[760px] text-sm">
            <thead className="border-b border-stone-200 text-left text-stone-600 dark:border-stone-800 dark:text-stone-400">
              <tr>
                <th className="p-4 font-medium">Nome</th>
                <th className="p-4 font-medium">Contato</th>
                <th className="p-4 font-medium">Agendamentos</th>
                <th className="p-4 font-medium">Último agendamento</th>
                <th className="p-4 font-medium">Receita total</th>
                <th className="p-4 font-medium">Faltas</th>
                <th className="p-4 text-right font-medium">Ações</th>
              </tr>
            </thead>
            <tbody>
              {data!.clients.map((c) => (
                <tr key={c.identifier} className="border-b border-stone-100 last:border-0 dark:border-stone-800">
                  <td className="p-4 font-medium">{c.name}</td>
                  <td className="p-4">
                    <span className="block">{c.email || '-'}</span>
                    {c.phone ? <span className="block text-stone-500 dark:text-stone-400">{c.phone}</span> : null}
                  </td>
                  <td className="p-4">{c.appointmentCount}</td>
                  <td className="p-4">{brDate(c.lastAppointment)}</td>
                  <td className="p-4">{formatBRL(c.totalRevenueCents)}</td>
                  <td className="p-4">{c.noShows}</td>
                  <td className="p-4 text-right">
                    <Button variant="ghost" size="sm" asChild>
                      <Link to={`/clients/${encodeURIComponent(c.identifier)}`} aria-label={`Ver histórico de ${c.name}`}>
                        Ver histórico
                      </Link>
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {total > PAGE ? (
        <div className="flex items-center justify-end gap-2 text-sm">
          <Button variant="outline" size="sm" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
            Anterior
          </Button>
          <span>
            Página {page + 1} de {Math.ceil(total / PAGE)}
          </span>
          <Button variant="outline" size="sm" disabled={(page + 1) * PAGE >= total} onClick={() => setPage((p) => p + 1)}>
            Próxima
          </Button>
        </div>
      ) : null}
    </div>
  )
}
