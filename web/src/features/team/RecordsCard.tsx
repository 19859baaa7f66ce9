import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Select } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { errorMessage, type Schemas } from '@/lib/api/client'
import { saveFile } from '@/lib/save-file'
import { useDownloadRecordHolders } from './api/record-holders'
import { useRecordSelf, useRecordTemplates, useSaveRecordTemplates, useSetRecordSelf, type RecordTemplate } from './api/records-settings'

const templateNames: { template: RecordTemplate['template']; label: string }[] = [
  { template: 'anamnese', label: 'Anamnese' },
  { template: 'evolucao', label: 'Evolução' },
  { template: 'encerramento', label: 'Encerramento ou encaminhamento' },
]

/**
 * 'Prontuários' (issue 43), the owner's: which professional of the team they
 * are (their records are signed as that professional; without one the owner
 * reads no record) and the practice's entry templates.
 */
export function RecordsCard({ professionals }: { professionals: Schemas['Professional'][] }) {
  const self = useRecordSelf()
  const setSelf = useSetRecordSelf()
  const templates = useRecordTemplates()
  return (
    <Card>
      <CardHeader>
        <CardTitle>Prontuários</CardTitle>
        <CardDescription>Cada profissional lê e escreve só os próprios prontuários.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <Field id="records-self" label="Você atende como" hint="Seus prontuários são assinados com o nome e o registro no conselho deste profissional.">
          <Select
            id="records-self"
            className="w-full sm:w-80"
            value={self.data ?? ''}
            disabled={self.isLoading || setSelf.isPending}
            onChange={(e) =>
              setSelf.mutate(e.target.value, {
                onSuccess: () => toast.success('Prontuários atualizados'),
                onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível salvar. Tente novamente.') }),
              })
            }
          >
            <option value="">Não atendo</option>
            {professionals.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Select>
        </Field>
        {professionals.length > 0 ? <HoldersExport professionals={professionals} /> : null}
        {templates.data ? <TemplatesForm templates={templates.data} /> : null}
      </CardContent>
    </Card>
  )
}

/**
 * For an incident notice (LGPD art. 48, Res. CD/ANPD 15/2024): per
 * professional, the clients whose records they keep — names and contacts as
 * CSV, never a note; the server logs the export in each record.
 */
function HoldersExport({ professionals }: { professionals: Schemas['Professional'][] }) {
  const exporting = useDownloadRecordHolders()
  const [busy, setBusy] = useState('')
  function save(id: string) {
    setBusy(id)
    exporting.mutate(id, {
      onSuccess: saveFile,
      onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível exportar. Tente novamente.') }),
      onSettled: () => setBusy(''),
    })
  }
  return (
    <section className="grid gap-2" aria-labelledby="holders-title">
      <h3 id="holders-title" className="text-base font-semibold">
        Exportar clientes com prontuário
      </h3>
      <p className="text-sm text-stone-600 dark:text-stone-400">Para um aviso de incidente (LGPD art. 48): nomes e contatos, nunca as anotações.</p>
      <ul className="grid gap-2">
        {professionals.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-sm wrap-break-word">{p.name}</span>
            <Button variant="outline" size="sm" disabled={exporting.isPending} onClick={() => save(p.id)}>
              {busy === p.id ? 'Exportando...' : 'Exportar clientes com prontuário'} <span className="sr-only">de {p.name}</span>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  )
}

function TemplatesForm({ templates }: { templates: RecordTemplate[] }) {
  const save = useSaveRecordTemplates()
  const [bodies, setBodies] = useState(() => Object.fromEntries(templateNames.map((t) => [t.template, templates.find((x) => x.template === t.template)?.body ?? ''])))
  function submit(e: React.FormEvent) {
    e.preventDefault()
    save.mutate(
      templateNames.map((t) => ({ template: t.template, body: bodies[t.template] })),
      {
        onSuccess: () => toast.success('Modelos salvos'),
        onError: (err) => toast.error('Erro', { description: errorMessage(err, 'Não foi possível salvar os modelos. Tente novamente.') }),
      },
    )
  }
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Modelos de anotação">
      <h3 className="text-base font-semibold">Modelos de anotação</h3>
      {templateNames.map((t) => (
        <Field key={t.template} id={`template-${t.template}`} label={t.label}>
          <Textarea id={`template-${t.template}`} rows={6} maxLength={5000} value={bodies[t.template]} onChange={(e) => setBodies((b) => ({ ...b, [t.template]: e.target.value }))} />
        </Field>
      ))}
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Salvando...' : 'Salvar modelos'}
        </Button>
      </div>
    </form>
  )
}
