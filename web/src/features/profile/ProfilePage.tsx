import { useEffect, useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import { BackLink } from '@/components/back-link'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { PageSpinner } from '@/components/ui/spinner'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, errorMessage, type Schemas } from '@/lib/api/client'
import { useProfile } from '@/lib/api/endpoints/get-profile'
import { useUpdateProfile } from './api/update-profile'
import { DeleteAccountDialog } from './DeleteAccountDialog'
import { PhotoCard } from './PhotoCard'

type Profile = Schemas['Profile']

const zones: [string, string][] = [
  ['America/Sao_Paulo', 'Brasília (SP, RJ, MG, Sul, GO, DF…)'],
  ['America/Bahia', 'Bahia'],
  ['America/Fortaleza', 'Fortaleza (CE, MA, PI, RN, PB)'],
  ['America/Recife', 'Recife (PE)'],
  ['America/Maceio', 'Maceió (AL, SE)'],
  ['America/Belem', 'Belém (PA, AP)'],
  ['America/Santarem', 'Santarém (oeste do PA)'],
  ['America/Araguaina', 'Araguaína (TO)'],
  ['America/Cuiaba', 'Cuiabá (MT)'],
  ['America/Campo_Grande', 'Campo Grande (MS)'],
  ['America/Manaus', 'Manaus (AM)'],
  ['America/Porto_Velho', 'Porto Velho (RO)'],
  ['America/Boa_Vista', 'Boa Vista (RR)'],
  ['America/Rio_Branco', 'Rio Branco (AC)'],
  ['America/Eirunepe', 'Eirunepé (oeste do AM)'],
  ['America/Noronha', 'Fernando de Noronha'],
]

export default function ProfilePage() {
  const { data, isLoading, isError } = useProfile()
  useEffect(() => {
    if (isError) toast.error('Erro', { description: 'Erro ao carregar informações do perfil.' })
  }, [isError])
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <BackLink />
      <h1 className="text-2xl font-bold tracking-tight">Perfil</h1>
      {isLoading || !data ? (
        isError ? null : <PageSpinner />
      ) : (
        <>
          <PhotoCard name={data.name} photoUrl={data.photoUrl} />
          <ProfileForm profile={data} />
        </>
      )}
      <Card className="border-red-300 dark:border-red-900">
        <CardHeader>
          <CardTitle className="text-red-700 dark:text-red-300">Zona de Perigo</CardTitle>
          <CardDescription>Excluir sua conta remove permanentemente todos os seus dados.</CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteAccountDialog />
        </CardContent>
      </Card>
    </div>
  )
}

function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile()
  const [form, setForm] = useState({
    name: profile.name,
    email: profile.email,
    contactEmail: profile.contactEmail,
    publicUsername: profile.publicUsername ?? '',
    area: profile.area,
    description: profile.description,
    phone: profile.phone,
    timeZone: profile.timeZone,
    instagram: profile.instagram,
    whatsapp: profile.whatsapp,
    linkedin: profile.linkedin,
    website: profile.website,
  })
  const busy = update.isPending
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
    setForm((f) => ({ ...f, [k]: e.target.value }))

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    if (!form.name.trim() || !form.email.trim() || !form.area.trim()) {
      toast.error('Erro', { description: 'Preencha todos os campos obrigatórios.' })
      return
    }
    update.mutate(form, {
      onSuccess: (saved) => {
        setForm((f) => ({
          ...f,
          instagram: saved.instagram,
          linkedin: saved.linkedin,
          whatsapp: saved.whatsapp,
          contactEmail: saved.contactEmail,
          publicUsername: saved.publicUsername ?? '',
        }))
        toast.success('Sucesso', { description: 'Perfil atualizado com sucesso!' })
      },
      onError: (err) => {
        if (err instanceof ApiError && err.code === 'username_taken') toast.error('Nome de usuário indisponível', { description: err.message })
        else toast.error('Erro', { description: errorMessage(err, 'Erro ao salvar informações do perfil.') })
      },
    })
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-6" noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Informações básicas</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field id="name" label="Nome completo *">
            <Input id="name" value={form.name} onChange={set('name')} />
          </Field>
          <Field id="email" label="E-mail *" hint="Não aparece na sua página pública.">
            <Input id="email" type="email" value={form.email} onChange={set('email')} aria-describedby="email-hint" />
          </Field>
          <Field id="publicUsername" label="Nome de usuário público" hint={`Usado na sua URL pública: ${window.location.origin}/agende/${form.publicUsername || 'seu-nome'}`}>
            <Input id="publicUsername" autoCapitalize="none" value={form.publicUsername} onChange={set('publicUsername')} aria-describedby="publicUsername-hint" />
          </Field>
          <Field id="area" label="Área de atuação *">
            <Input id="area" value={form.area} onChange={set('area')} />
          </Field>
          <div className="sm:col-span-2">
            <Field id="description" label="Biografia">
              <Textarea id="description" value={form.description} onChange={set('description')} />
            </Field>
          </div>
          <Field id="contactEmail" label="E-mail de contato (opcional, exibido na sua página pública)">
            <Input id="contactEmail" type="email" autoComplete="email" placeholder="contato@seunegocio.com.br" value={form.contactEmail} onChange={set('contactEmail')} />
          </Field>
          <Field id="phone" label="Telefone">
            <Input id="phone" type="tel" value={form.phone} onChange={set('phone')} />
          </Field>
          <Field id="timeZone" label="Fuso horário">
            <select
              id="timeZone"
              value={form.timeZone}
              onChange={set('timeZone')}
              className="h-10 rounded-lg border border-stone-300 bg-white px-3 text-base sm:text-sm dark:border-stone-700 dark:bg-stone-900"
            >
              {zones.map(([z, label]) => (
                <option key={z} value={z}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Redes sociais</CardTitle>
          <CardDescription>Pode digitar só o usuário: nós completamos o endereço.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field id="instagram" label="Instagram">
            <Input id="instagram" placeholder="@seuperfil" value={form.instagram} onChange={set('instagram')} />
          </Field>
          <Field id="whatsapp" label="WhatsApp">
            <Input id="whatsapp" type="tel" placeholder="(11) 99999-9999" value={form.whatsapp} onChange={set('whatsapp')} />
          </Field>
          <Field id="linkedin" label="LinkedIn">
            <Input id="linkedin" placeholder="seu-perfil" value={form.linkedin} onChange={set('linkedin')} />
          </Field>
          <Field id="website" label="Site">
            <Input id="website" value={form.website} onChange={set('website')} />
          </Field>
        </CardContent>
      </Card>
      <div className="flex justify-end">
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Salvando...' : 'Salvar perfil'}
        </Button>
      </div>
    </form>
  )
}
