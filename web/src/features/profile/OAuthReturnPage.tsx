import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { PageSpinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api/client'

/** What a provider's consent page sent back in the return address. */
export type OAuthReturn = { code: string; state: string; error: string }

/**
 * Where a provider's consent page sends the owner back (/profile/google,
 * /profile/mercadopago: ?code=…&state=…, or ?error=…&state=…). Opening it
 * changes nothing by itself: the page hands what came back to `finish`, once,
 * and the server checks the state is one this owner started before it takes
 * the code. Then `connected` says so (a toast, the cache) and the owner is back
 * on the profile; a refusal is said in pt-BR under `failedTitle`, with the way
 * back.
 */
export function OAuthReturnPage<T>({
  finish,
  connected,
  failedTitle,
  fallback,
}: {
  finish: (back: OAuthReturn) => Promise<T>
  connected: (result: T, qc: QueryClient) => void
  failedTitle: string
  fallback: string
}) {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const qc = useQueryClient()
  const sent = useRef(false)
  const [failed, setFailed] = useState<string | null>(null)
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    finish({ code: params.get('code') ?? '', state: params.get('state') ?? '', error: params.get('error') ?? '' })
      .then((result) => {
        connected(result, qc)
        void navigate('/profile', { replace: true })
      })
      .catch((e: unknown) => setFailed(errorMessage(e, fallback)))
  }, [params, navigate, qc, finish, connected, fallback])
  if (!failed) return <PageSpinner />
  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardContent className="grid gap-4 pt-6">
          <h1 className="text-xl font-bold">{failedTitle}</h1>
          <p role="alert">{failed}</p>
          <Button asChild>
            <Link to="/profile">Voltar ao perfil</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  )
}
