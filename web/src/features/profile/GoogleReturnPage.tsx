import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api/client'
import { finishGoogle } from '@/lib/api/endpoints/google-calendars'
import { queryKeys } from '@/lib/api/keys'

/**
 * Where Google sends the owner back after 'Conectar Google Agenda'
 * (/profile/google?code=…&state=…, or ?error=access_denied&state=…). Opening it
 * changes nothing by itself: the page POSTs what came back, once, and the
 * server checks the state is one this owner started before it takes the code.
 */
export default function GoogleReturnPage() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const qc = useQueryClient()
  const sent = useRef(false)
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    finishGoogle({ code: params.get('code') ?? '', state: params.get('state') ?? '', error: params.get('error') ?? '' })
      .then((src) => {
        void qc.invalidateQueries({ queryKey: queryKeys.calendars })
        toast.success('Google Agenda conectada', { description: `${src.host}: vamos ler os horários ocupados da agenda principal agora. Escolha outras agendas no perfil.` })
        void navigate('/profile', { replace: true })
      })
      .catch((e: unknown) => setFailed(errorMessage(e, 'Não foi possível conectar o Google Agenda. Tente novamente.')))
  }, [params, navigate, qc])
  if (!failed) return <PageSpinner />
  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardContent className="grid gap-4 pt-6">
          <h1 className="text-xl font-bold">Google Agenda não conectada</h1>
          <p role="alert">{failed}</p>
          <Button asChild>
            <Link to="/profile">Voltar ao perfil</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  )
}
