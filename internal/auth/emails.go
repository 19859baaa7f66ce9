package auth

import (
	"database/sql"
	"fmt"
	"time"

	agmail "github.com/agendei/agendei/internal/mail"
	"github.com/agendei/agendei/internal/platform/brfmt"
	"github.com/agendei/agendei/internal/platform/tz"
)

// Times in these e-mails are shown in Brasília time: the account may not have
// a time zone of its own yet.
func brTime(t time.Time) string {
	return brfmt.DayTime(t.In(tz.Load(tz.Default))) + " (horário de Brasília)"
}

func resetFailedEmail(at time.Time, ip string, lockedUntil sql.NullTime, baseURL string) agmail.Content {
	c := agmail.Content{
		Subject:  "Tentativa de redefinição de senha no Agendei",
		Greeting: "Olá!",
		Paragraphs: []string{
			fmt.Sprintf("Alguém tentou redefinir a senha da sua conta no Agendei em %s, a partir do endereço %s, usando uma palavra-chave de recuperação incorreta. A senha não foi alterada.", brTime(at), ip),
			"Se foi você, tente novamente com a palavra-chave que você definiu no cadastro. Se não foi você, sua conta continua protegida; recomendamos usar uma senha forte e falar com o suporte se as tentativas continuarem.",
		},
		Button: &agmail.Link{Label: "Ir para o Agendei", URL: baseURL + "/login"},
		Footer: "Você recebeu este e-mail porque houve uma tentativa de redefinição de senha na sua conta.",
	}
	if lockedUntil.Valid {
		c.Paragraphs = append(c.Paragraphs, fmt.Sprintf("Por segurança, a redefinição por palavra-chave ficará bloqueada até %s.", brTime(lockedUntil.Time)))
	}
	return c
}

func resetSucceededEmail(at time.Time, ip, baseURL string) agmail.Content {
	return agmail.Content{
		Subject:  "Sua senha do Agendei foi redefinida",
		Greeting: "Olá!",
		Paragraphs: []string{
			fmt.Sprintf("A senha da sua conta no Agendei foi redefinida em %s, a partir do endereço %s. Por segurança, todas as sessões abertas foram encerradas.", brTime(at), ip),
			"Se não foi você, fale com o suporte imediatamente.",
		},
		Button: &agmail.Link{Label: "Entrar no Agendei", URL: baseURL + "/login"},
		Footer: "Você recebeu este e-mail porque a senha da sua conta foi alterada.",
	}
}

func recoveryLinkEmail(link, ip string) agmail.Content {
	return agmail.Content{
		Subject:  "Link para recuperar sua conta no Agendei",
		Greeting: "Olá!",
		Paragraphs: []string{
			fmt.Sprintf("Recebemos um pedido (do endereço %s) para recuperar o acesso à sua conta no Agendei. Use o botão abaixo para definir uma nova senha e uma nova palavra-chave de recuperação. Seus dados continuam como estão.", ip),
			"O link vale por 1 hora e pode ser usado uma única vez. Se você não pediu, ignore este e-mail: nada será alterado.",
		},
		Button: &agmail.Link{Label: "Definir nova senha", URL: link},
		Footer: "Você recebeu este e-mail porque alguém informou este endereço na recuperação de conta do Agendei.",
	}
}
