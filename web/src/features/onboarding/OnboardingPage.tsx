import { useQueryClient } from '@tanstack/react-query'
import { Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { HoursEditor, weekOf } from '@/components/hours-editor'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { ApiError, errorMessage, type Schemas } from '@/lib/api/client'
import { parseBRL } from '@/lib/format'
import { cn } from '@/lib/utils'
import { usernameAvailabilityQueryOptions } from './api/check-username'
import { useFinishOnboarding } from './api/finish-onboarding'

type Day = Schemas['Day']

type ServiceDraft = { name: string; duration: string; price: string; description: string }
const newService = (): ServiceDraft => ({ name: '', duration: '60', price: '0', description: '' })
// Onboarding defaults (SPEC §3): Monday to Friday 09:00–17:00 on, weekends 09:00–13:00 off.
const defaultDays = (): Day[] =>
  weekOf(Array.from({ length: 7 }, (_, d) => (d >= 1 && d <= 5 ? { enabled: true, start: '09:00', end: '17:00' } : { enabled: false, start: '09:00', end: '13:00' })))

const taken = { title: 'Nome de usuário indisponível', description: 'Este nome de usuário já está sendo usado. Escolha outro.' }

export default function OnboardingPage() {
  const navigate = useNavigate()
  const qc = useQueryClient()
  const [step, setStep] = useState(1)
  const [profile, setProfile] = useState({ name: '', area: '', publicUsername: '', description: '' })
  const [services, setServices] = useState<ServiceDraft[]>([newService()])
  const [days, setDays] = useState<Day[]>(defaultDays)
  const [checking, setChecking] = useState(false)
  const saving = useFinishOnboarding()
  const busy = checking ? 'checking' : saving.isPending || saving.isSuccess ? 'saving' : ''
  const setP = (k: keyof typeof profile) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setProfile((p) => ({ ...p, [k]: e.target.value }))
  const setS = (i: number, k: keyof ServiceDraft) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setServices((ss) => ss.map((s, j) => (j === i ? { ...s, [k]: e.target.value } : s)))

  async function nextFromProfile() {
    if (!profile.name.trim() || !profile.area.trim() || !profile.publicUsername.trim()) {
      toast.error('Erro', { description: 'Preencha todos os campos obrigatórios.' })
      return
    }
    const username = profile.publicUsername.trim().toLowerCase()
    if (username.length >= 3) {
      setChecking(true)
      try {
        const r = await qc.fetchQuery(usernameAvailabilityQueryOptions(username))
        if (!r.available) {
          toast.error(r.message === taken.description ? taken.title : 'Erro', { description: r.message })
          return
        }
      } catch {
        // The final save re-checks; a failed check does not block the owner.
      } finally {
        setChecking(false)
      }
    }
    setStep(2)
  }

  function nextFromServices() {
    if (!services[0].name.trim() || !services[0].duration.trim()) {
      toast.error('Erro', { description: 'Configure pelo menos um serviço.' })
      return
    }
    setStep(3)
  }

  function finish() {
    if (!profile.name.trim() || !profile.area.trim() || !profile.publicUsername.trim()) {
      toast.error('Erro', { description: 'Preencha todos os campos obrigatórios.' })
      setStep(1)
      return
    }
    saving.mutate(
      {
        name: profile.name.trim(),
        area: profile.area.trim(),
        publicUsername: profile.publicUsername.trim(),
        description: profile.description.trim(),
        services: services.map((s) => ({
          name: s.name.trim(),
          duration: s.duration.trim() ? Number.parseInt(s.duration, 10) : null,
          priceCents: parseBRL(s.price) ?? 0,
          description: s.description.trim(),
        })),
        days,
      },
      {
        onSuccess: () => {
          toast.success('Configuração completa!', { description: 'Você tem 7 dias grátis!' })
          navigate('/dashboard', { replace: true })
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'username_taken') {
            toast.error(taken.title, { description: taken.description })
            setStep(1)
          } else {
            toast.error('Erro', { description: errorMessage(err, 'Não foi possível salvar. Tente novamente.') })
          }
        },
      },
    )
  }

  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Vamos configurar sua agenda</h1>
        <div className="mt-3 flex items-center gap-2" aria-label={`Passo ${step} de 3`}>
          {[1, 2, 3].map((n) => (
            <span key={n} aria-hidden className={cn('h-2.5 rounded-full transition-all', n === step ? 'w-8 bg-brand-700' : n < step ? 'w-2.5 bg-brand-500' : 'w-2.5 bg-stone-300 dark:bg-stone-700')} />
          ))}
          <span className="ml-2 text-sm text-stone-600 dark:text-stone-400">Passo {step} de 3</span>
        </div>
      </div>

      {step === 1 ? (
        <Card>
          <CardHeader>
            <CardTitle>Seu perfil</CardTitle>
            <CardDescription>Como seus clientes vão encontrar você.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <Field id="ob-name" label="Nome profissional *">
              <Input id="ob-name" value={profile.name} onChange={setP('name')} />
            </Field>
            <Field id="ob-area" label="Área de atuação *">
              <Input id="ob-area" placeholder="Ex.: Psicologia" value={profile.area} onChange={setP('area')} />
            </Field>
            <Field id="ob-username" label="Nome de usuário público *">
              <div className="flex items-center rounded-lg border border-stone-300 bg-white pl-3 dark:border-stone-700 dark:bg-stone-900">
                <span className="shrink-0 text-sm text-stone-500 dark:text-stone-400">{window.location.host}/agende/</span>
                <Input id="ob-username" className="border-0 pl-1 focus-visible:outline-none" autoCapitalize="none" value={profile.publicUsername} onChange={setP('publicUsername')} />
              </div>
            </Field>
            <Field id="ob-description" label="Descrição (opcional)">
              <Textarea id="ob-description" value={profile.description} onChange={setP('description')} />
            </Field>
          </CardContent>
        </Card>
      ) : null}

      {step === 2 ? (
        <Card>
          <CardHeader>
            <CardTitle>Seus serviços</CardTitle>
            <CardDescription>Cadastre um ou mais serviços. Você pode editar depois.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {services.map((s, i) => (
              <fieldset key={i} className="grid gap-3 rounded-xl border border-stone-200 p-4 dark:border-stone-800">
                <legend className="px-1 text-sm font-medium">Serviço {i + 1}</legend>
                <Field id={`svc-${i}-name`} label="Nome do serviço *">
                  <Input id={`svc-${i}-name`} value={s.name} onChange={setS(i, 'name')} />
                </Field>
                <div className="grid grid-cols-2 gap-3">
                  <Field id={`svc-${i}-duration`} label="Duração (min) *">
                    <Input id={`svc-${i}-duration`} type="number" min={1} inputMode="numeric" value={s.duration} onChange={setS(i, 'duration')} />
                  </Field>
                  <Field id={`svc-${i}-price`} label="Preço (R$)">
                    <Input id={`svc-${i}-price`} inputMode="decimal" value={s.price} onChange={setS(i, 'price')} />
                  </Field>
                </div>
                <Field id={`svc-${i}-description`} label="Descrição">
                  <Input id={`svc-${i}-description`} value={s.description} onChange={setS(i, 'description')} />
                </Field>
                {services.length > 1 ? (
                  <Button type="button" variant="ghost" className="justify-self-start text-red-700" onClick={() => setServices((ss) => ss.filter((_, j) => j !== i))}>
                    <Trash2 aria-hidden /> Remover serviço
                  </Button>
                ) : null}
              </fieldset>
            ))}
            <Button type="button" variant="outline" onClick={() => setServices((ss) => [...ss, newService()])}>
              <Plus aria-hidden /> Adicionar outro serviço
            </Button>
          </CardContent>
        </Card>
      ) : null}

      {step === 3 ? (
        <Card>
          <CardHeader>
            <CardTitle>Horários de atendimento</CardTitle>
            <CardDescription>Marque os dias em que você atende.</CardDescription>
          </CardHeader>
          <CardContent>
            <HoursEditor days={days} onChange={setDays} />
          </CardContent>
        </Card>
      ) : null}

      <div className="flex justify-between gap-2">
        {step > 1 ? (
          <Button variant="outline" onClick={() => setStep((s) => s - 1)} disabled={busy !== ''}>
            Voltar
          </Button>
        ) : (
          <span />
        )}
        {step === 1 ? (
          <Button onClick={nextFromProfile} disabled={busy !== ''}>
            {busy === 'checking' ? 'Verificando...' : 'Salvar e continuar'}
          </Button>
        ) : step === 2 ? (
          <Button onClick={nextFromServices}>Salvar e continuar</Button>
        ) : (
          <Button onClick={finish} disabled={busy !== ''}>
            {busy === 'saving' ? 'Salvando...' : 'Finalizar e começar teste grátis'}
          </Button>
        )}
      </div>
    </div>
  )
}
