import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Textarea } from '@/components/ui/textarea'
import { copyText } from '@/lib/clipboard'

/** The copy-paste code that puts the booking form on the owner's own site. */
export function widgetSnippet(origin: string, username: string, name: string): string {
  const id = `agendei-${username}`
  const title = `Agendar com ${name}`.replace(/"/g, '&quot;')
  return [
    `<iframe id="${id}" src="${origin}/embed/${encodeURIComponent(username)}" title="${title}" style="width:100%;min-height:640px;border:0" loading="lazy"></iframe>`,
    `<script>window.addEventListener("message",function(e){if(e.origin!=="${origin}"||!e.data||e.data.type!=="agendei:height")return;var f=document.getElementById("${id}");if(f)f.style.height=e.data.height+"px"})</script>`,
  ].join('\n')
}

/** 'Widget para o seu site': the booking form in an iframe whose height follows its content. */
export function WidgetCard({ username, name }: { username: string | null; name: string }) {
  const code = username ? widgetSnippet(window.location.origin, username, name) : ''
  return (
    <Card>
      <CardHeader>
        <CardTitle>Widget para o seu site</CardTitle>
        <CardDescription>Cole este código na página do seu site onde o formulário de agendamento deve aparecer. A altura se ajusta sozinha.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        {username ? (
          <>
            <label htmlFor="widget-code" className="text-sm font-medium">
              Código do widget
            </label>
            <Textarea id="widget-code" readOnly rows={5} className="font-mono text-xs" value={code} onFocus={(e) => e.currentTarget.select()} />
            <div>
              <Button
                type="button"
                variant="outline"
                onClick={() => void copyText(code, 'Código copiado', 'Copie o código manualmente.')}
              >
                Copiar código
              </Button>
            </div>
          </>
        ) : (
          <p className="text-sm text-stone-600 dark:text-stone-400">Defina seu nome de usuário acima para gerar o código do widget.</p>
        )}
      </CardContent>
    </Card>
  )
}
