package auth_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agendei/agendei/internal/auth"
	"github.com/agendei/agendei/internal/server/servertest"
)

const cookie = "agendei_refresh"

func TestSignup_CreatesConfirmedAccountAndSignsIn(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		r := c.Signup("  Ana Souza ", " Ana@Example.COM ", " segredo1 ", " gato ")
		if c.Cookie(cookie) == "" {
			t.Fatal("signup must set the refresh cookie")
		}
		if sc := r.Header.Get("Set-Cookie"); !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Strict") {
			t.Fatalf("refresh cookie flags: %s", sc)
		}
		var me struct{ Email, Name string }
		c.Do("GET", "/api/me", nil).JSON(t, &me)
		if me.Email != "ana@example.com" || me.Name != "Ana Souza" {
			t.Fatalf("me = %+v", me)
		}
		if r := e.Client().Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("login with the trimmed password: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestSignup_ValidatesWithSpecTexts(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		cases := []struct {
			name, email, password, keyword, want string
		}{
			{"", "a@b.com", "123456", "abc", "Todos os campos são obrigatórios"},
			{"Ana", "a@b.com", "   ", "abc", "Todos os campos são obrigatórios"},
			{"Ana", "a@b.com", "12345", "abc", "A senha deve ter pelo menos 6 caracteres."},
			{"Ana", "a@b.com", "123456", "  ab  ", "A palavra-chave de recuperação deve ter pelo menos 3 caracteres."},
			{"Ana", "não-é-email", "123456", "abc", "Informe um e-mail válido."},
			{strings.Repeat("a", 121), "a@b.com", "123456", "abc", "O nome deve ter no máximo 120 caracteres."},
		}
		for _, tc := range cases {
			r := e.Client().Do("POST", "/api/auth/signup", map[string]string{"name": tc.name, "email": tc.email, "password": tc.password, "recoveryKeyword": tc.keyword})
			if r.StatusCode != 400 || r.Err(t).Error.Message != tc.want {
				t.Errorf("%+v: got %d %s, want 400 %q", tc, r.StatusCode, r.Body, tc.want)
			}
		}
		if r := e.Client().Do("POST", "/api/auth/signup", []byte(`{"name":`)); r.StatusCode != 400 || r.Err(t).Error.Code != "invalid_json" {
			t.Errorf("broken JSON: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestSignup_ExistingEmailIsRefusedAndNeverReplaced(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Client().Signup("Ana", "ana@example.com", "original1", "gato")
		r := e.Client().Do("POST", "/api/auth/signup", map[string]string{"name": "Intrusa", "email": "ANA@example.com", "password": "outra123", "recoveryKeyword": "rato"})
		if r.StatusCode != http.StatusConflict || r.Err(t).Error.Code != "email_taken" {
			t.Fatalf("duplicate signup: %d %s", r.StatusCode, r.Body)
		}
		if r := e.Client().Login("ana@example.com", "original1"); r.StatusCode != 200 {
			t.Fatal("the original account must still sign in with its own password")
		}
		if r := e.Client().Login("ana@example.com", "outra123"); r.StatusCode != 401 {
			t.Fatal("the refused signup's password must not work")
		}
	})
}

func TestSignup_ConcurrentSameEmailCreatesOneAccount(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		var wg sync.WaitGroup
		codes := make(chan int, 8)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := e.Client().Do("POST", "/api/auth/signup", map[string]string{"name": "Ana", "email": "race@example.com", "password": "123456", "recoveryKeyword": "abc"})
				codes <- r.StatusCode
			}()
		}
		wg.Wait()
		close(codes)
		created := 0
		for c := range codes {
			switch c {
			case 201:
				created++
			case 409, 429: // taken, or the per-e-mail signup limit
			default:
				t.Errorf("unexpected status %d", c)
			}
		}
		if created != 1 {
			t.Fatalf("%d accounts created, want 1", created)
		}
	})
}

func TestLogin_WrongPasswordOrUnknownEmailGivesSpecMessage(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		const want = "E-mail ou senha incorretos. Verifique seus dados e tente novamente."
		for _, creds := range [][2]string{{"ana@example.com", "errada1"}, {"ninguem@example.com", "segredo1"}} {
			r := e.Client().Login(creds[0], creds[1])
			if r.StatusCode != 401 || r.Err(t).Error.Message != want {
				t.Errorf("%v: %d %s", creds, r.StatusCode, r.Body)
			}
		}
		r := e.Client().Login("", "")
		if r.StatusCode != 400 || r.Err(t).Error.Message != "Por favor, preencha e-mail e senha." {
			t.Errorf("empty login: %d %s", r.StatusCode, r.Body)
		}
	})
}

// Ten failed attempts per e-mail and address in 15 minutes; the eleventh
// waits out the window even with the right password. (Before issue 12 this limit was per
// e-mail alone, which let anyone lock the owner out: see login_test.go.)
func TestLogin_IsRateLimitedPerEmailAndAddress(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Server.Auth.SetSleep(func(context.Context, time.Duration) error { return nil })
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		for i := range 10 {
			if r := e.Client().Login("ana@example.com", "errada1"); r.StatusCode != 401 {
				t.Fatalf("attempt %d: %d", i+1, r.StatusCode)
			}
		}
		r := e.Client().Login("ana@example.com", "segredo1")
		if r.StatusCode != 429 || r.Err(t).Error.Code != "rate_limited" || r.Header.Get("Retry-After") == "" ||
			!strings.Contains(r.Err(t).Error.Message, "Muitas tentativas. Aguarde") {
			t.Fatalf("11th attempt: %d %s", r.StatusCode, r.Body)
		}
		e.Clock.Advance(15 * time.Minute)
		if r := e.Client().Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatalf("after the window: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestRefresh_RotatesAndDetectsReuse(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		first := c.Cookie(cookie)
		r := c.Do("POST", "/api/auth/refresh", nil)
		if r.StatusCode != 200 {
			t.Fatalf("refresh: %d %s", r.StatusCode, r.Body)
		}
		second := c.Cookie(cookie)
		if second == "" || second == first {
			t.Fatal("refresh must rotate the cookie")
		}
		// A thief replays the first token, past the leeway: the whole chain dies.
		e.Clock.Advance(auth.RefreshLeeway)
		thief := e.Client()
		thief.SetCookie(cookie, first)
		if r := thief.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
			t.Fatalf("reused token: %d", r.StatusCode)
		}
		if r := c.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
			t.Fatalf("after reuse the newest token must be revoked too: %d", r.StatusCode)
		}
		// Another sign-in of the same account is a different chain and survives.
		other := e.Client()
		other.Login("ana@example.com", "segredo1")
		if r := other.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 200 {
			t.Fatalf("other device: %d", r.StatusCode)
		}
	})
}

// The answer to a refresh is lost on its way (the owner taps a link while the
// app refreshes): the browser presents the old cookie again, and inside the
// leeway that still signs in, in the same family — a later reuse of it still
// revokes the family.
func TestRefresh_LostAnswerInsideTheLeewayKeepsTheSignIn(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		first := c.Cookie(cookie)
		if r := c.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 200 {
			t.Fatalf("refresh: %d %s", r.StatusCode, r.Body)
		}
		lost := c.Cookie(cookie) // the answer that never reached the browser
		e.Clock.Advance(auth.RefreshLeeway - time.Second)
		again := e.Client()
		again.SetCookie(cookie, first)
		r := again.Do("POST", "/api/auth/refresh", nil)
		if r.StatusCode != 200 {
			t.Fatalf("the old cookie inside the leeway: %d %s", r.StatusCode, r.Body)
		}
		var s struct{ AccessToken string }
		r.JSON(t, &s)
		again.Token = s.AccessToken
		if r := again.Do("GET", "/api/me", nil); r.StatusCode != 200 {
			t.Fatalf("signed in after the lost answer: %d", r.StatusCode)
		}
		if r := again.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 200 {
			t.Fatalf("the sibling's token rotates on: %d %s", r.StatusCode, r.Body)
		}
		// The leeway runs from the first use, not the last: past it, the old token is a replay.
		e.Clock.Advance(time.Second)
		thief := e.Client()
		thief.SetCookie(cookie, first)
		if r := thief.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
			t.Fatalf("the old cookie past the leeway: %d", r.StatusCode)
		}
		for name, tok := range map[string]string{"lost": lost, "sibling": again.Cookie(cookie)} {
			late := e.Client()
			late.SetCookie(cookie, tok)
			if r := late.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
				t.Fatalf("after the replay the %s token must be revoked: %d", name, r.StatusCode)
			}
		}
	})
}

func TestRefresh_ExpiresAfterThirtyDays(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		e.Clock.Advance(31 * 24 * time.Hour)
		if r := c.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
			t.Fatalf("expired refresh: %d", r.StatusCode)
		}
		if r := c.Do("GET", "/api/me", nil); r.StatusCode != 401 {
			t.Fatalf("expired access token: %d", r.StatusCode)
		}
	})
}

func TestLogout_LocalEndsThisDeviceGlobalEndsAll(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		a, b, c := e.Client(), e.Client(), e.Client()
		a.Signup("Ana", "ana@example.com", "segredo1", "gato")
		b.Login("ana@example.com", "segredo1")
		c.Login("ana@example.com", "segredo1")
		if r := a.Do("POST", "/api/auth/logout", map[string]string{"scope": "local"}); r.StatusCode != 204 {
			t.Fatalf("local logout: %d %s", r.StatusCode, r.Body)
		}
		if r := a.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
			t.Fatal("signed-out device must not refresh")
		}
		if r := b.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 200 {
			t.Fatal("local logout must leave other devices signed in")
		}
		if r := b.Do("POST", "/api/auth/logout", nil); r.StatusCode != 204 {
			t.Fatalf("global logout: %d", r.StatusCode)
		}
		for _, x := range []*servertest.Client{b, c} {
			if r := x.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
				t.Fatal("global logout must end every device")
			}
		}
	})
}

func resetBody(email, keyword, password string) map[string]string {
	return map[string]string{"email": email, "recoveryKeyword": keyword, "newPassword": password}
}

func TestPasswordReset_DistinctOutcomesAndSessionsEnd(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "Gato Preto")
		anon := e.Client()
		if r := anon.Do("POST", "/api/auth/password-reset", resetBody("", "", "")); r.Err(t).Error.Message != "Por favor, preencha todos os campos." {
			t.Errorf("empty: %s", r.Body)
		}
		if r := anon.Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "gato preto", "12345")); r.Err(t).Error.Message != "A nova senha deve ter pelo menos 6 caracteres." {
			t.Errorf("short: %s", r.Body)
		}
		if r := anon.Do("POST", "/api/auth/password-reset", resetBody("ninguem@example.com", "x", "novasenha")); r.StatusCode != 404 || r.Err(t).Error.Code != "email_not_found" {
			t.Errorf("unknown e-mail: %d %s", r.StatusCode, r.Body)
		}
		if r := anon.Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "cachorro", "novasenha")); r.StatusCode != 401 || r.Err(t).Error.Code != "keyword_incorrect" {
			t.Errorf("wrong keyword: %d %s", r.StatusCode, r.Body)
		}
		// The keyword is compared without regard to case or extra spaces.
		if r := anon.Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "  gato   PRETO ", "novasenha")); r.StatusCode != 200 {
			t.Fatalf("right keyword: %d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
			t.Fatal("a reset must end every session")
		}
		if r := e.Client().Login("ana@example.com", "novasenha"); r.StatusCode != 200 {
			t.Fatal("new password must work")
		}
		if r := e.Client().Login("ana@example.com", "segredo1"); r.StatusCode != 401 {
			t.Fatal("old password must not work")
		}
		mails := e.Mails()
		if len(mails) != 2 || !strings.Contains(mails[0].Raw, "Tentativa de redefini") || !strings.Contains(mails[1].Raw, "foi redefinida") {
			t.Fatalf("want one mail per evaluated attempt (failed, then success), got %d", len(mails))
		}
	})
}

func TestPasswordReset_KeywordNotConfigured(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		if _, err := e.DB.ExecContext(context.Background(), `UPDATE users SET keyword_hash = NULL`); err != nil {
			t.Fatal(err)
		}
		r := e.Client().Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "gato", "novasenha"))
		if r.StatusCode != 409 || r.Err(t).Error.Code != "keyword_not_configured" {
			t.Fatalf("%d %s", r.StatusCode, r.Body)
		}
	})
}

func TestPasswordReset_FiftyGuessesAreNotAllEvaluated(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		statuses := map[string]int{}
		for i := range 50 {
			r := e.Client().Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "chute"+string(rune('a'+i%26)), "novasenha"))
			code := r.Err(t).Error.Code
			statuses[code]++
			if r.StatusCode == 429 && !strings.Contains(r.Err(t).Error.Message, "Aguarde") && !strings.Contains(r.Err(t).Error.Message, "bloqueada") {
				t.Fatalf("429 without a clear pt-BR message: %s", r.Body)
			}
		}
		if statuses["keyword_incorrect"] != 4 || statuses["keyword_locked"]+statuses["rate_limited"] != 46 {
			t.Fatalf("outcomes %v: want 4 evaluated misses, then the lock and the limiter", statuses)
		}
		// Only the evaluated attempts reached the owner's inbox (4 misses + the locking one).
		if n := len(e.Mails()); n != 5 {
			t.Fatalf("%d mails to the owner, want 5", n)
		}
		// Even the right keyword waits out the lock…
		e.Clock.Advance(14 * time.Minute)
		if r := e.Client().Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "gato", "novasenha")); r.StatusCode != 429 {
			t.Fatalf("right keyword during lock: %d %s", r.StatusCode, r.Body)
		}
		// …and after it, works.
		e.Clock.Advance(2 * time.Minute)
		if r := e.Client().Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "gato", "novasenha")); r.StatusCode != 200 {
			t.Fatalf("after the lock: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestPasswordReset_LockLengthensOnRepeat(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		miss := func() *servertest.Response {
			return e.Client().Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "errada", "novasenha"))
		}
		for range 5 {
			miss()
		}
		e.Clock.Advance(16 * time.Minute) // first lock (15 min) over; rate windows reset too
		var last *servertest.Response
		for range 5 {
			last = miss()
		}
		if last.Err(t).Error.Code != "keyword_locked" || !strings.Contains(last.Err(t).Error.Message, "30 minutos") {
			t.Fatalf("second lock: %s", last.Body)
		}
	})
}

func recoveryToken(t *testing.T, raw string) string {
	// The .eml is quoted-printable: undo soft line breaks first.
	raw = strings.ReplaceAll(raw, "=\r\n", "")
	m := regexp.MustCompile(`/forgot-password\?token=(?:3D)?([A-Za-z0-9_\-]+)`).FindStringSubmatch(raw)
	if m == nil {
		t.Fatalf("no recovery link in mail:\n%s", raw)
	}
	return m[1]
}

func TestAccountRecovery_OneTimeLinkSetsPasswordAndKeyword(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		owner := e.Client()
		owner.Signup("Ana", "ana@example.com", "segredo1", "gato")
		anon := e.Client()
		// Same answer whether or not the account exists.
		for _, email := range []string{"ana@example.com", "ninguem@example.com"} {
			if r := anon.Do("POST", "/api/auth/account-recovery", map[string]string{"email": email}); r.StatusCode != 202 {
				t.Fatalf("%s: %d %s", email, r.StatusCode, r.Body)
			}
		}
		mails := e.Mails()
		if len(mails) != 1 || !strings.Contains(mails[0].Raw, "To: <ana@example.com>") {
			t.Fatalf("want one link, to the owner; got %d mails", len(mails))
		}
		token := recoveryToken(t, mails[0].Raw)
		body := map[string]string{"token": token, "password": "nova-senha", "recoveryKeyword": "cachorro"}
		if r := anon.Do("POST", "/api/auth/account-recovery/complete", body); r.StatusCode != 200 {
			t.Fatalf("complete: %d %s", r.StatusCode, r.Body)
		}
		if r := owner.Do("POST", "/api/auth/refresh", nil); r.StatusCode != 401 {
			t.Fatal("recovery must end every session")
		}
		if r := e.Client().Login("ana@example.com", "nova-senha"); r.StatusCode != 200 {
			t.Fatal("new password must work")
		}
		if r := anon.Do("POST", "/api/auth/password-reset", resetBody("ana@example.com", "cachorro", "outra-senha")); r.StatusCode != 200 {
			t.Fatalf("the new keyword must work: %d %s", r.StatusCode, r.Body)
		}
		if r := anon.Do("POST", "/api/auth/account-recovery/complete", body); r.StatusCode != 400 || r.Err(t).Error.Code != "invalid_token" {
			t.Fatalf("a link works once: %d %s", r.StatusCode, r.Body)
		}
	})
}

func TestAccountRecovery_LinkExpiresAfterOneHour(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		e.Client().Signup("Ana", "ana@example.com", "segredo1", "gato")
		e.Client().Do("POST", "/api/auth/account-recovery", map[string]string{"email": "ana@example.com"})
		token := recoveryToken(t, e.Mails()[0].Raw)
		e.Clock.Advance(61 * time.Minute)
		r := e.Client().Do("POST", "/api/auth/account-recovery/complete", map[string]string{"token": token, "password": "nova-senha", "recoveryKeyword": "rato"})
		if r.StatusCode != 400 || r.Err(t).Error.Code != "invalid_token" {
			t.Fatalf("expired link: %d %s", r.StatusCode, r.Body)
		}
		if r := e.Client().Login("ana@example.com", "segredo1"); r.StatusCode != 200 {
			t.Fatal("an expired link must change nothing")
		}
	})
}

func TestDeleteAccount_NeedsPasswordAndWordThenRemovesEverything(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		c := e.Client()
		c.Signup("Ana", "ana@example.com", "segredo1", "gato")
		other := e.Client()
		other.Signup("Bia", "bia@example.com", "segredo2", "rato")
		if r := c.Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "excluir"}); r.StatusCode != 400 || r.Err(t).Error.Message != "Digite 'EXCLUIR' para confirmar" {
			t.Fatalf("wrong word: %d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("DELETE", "/api/account", map[string]string{"password": "", "confirmation": "EXCLUIR"}); r.StatusCode != 400 || r.Err(t).Error.Message != "Digite sua senha para confirmar a exclusão" {
			t.Fatalf("no password: %d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("DELETE", "/api/account", map[string]string{"password": "errada", "confirmation": "EXCLUIR"}); r.StatusCode != 403 {
			t.Fatalf("wrong password: %d %s", r.StatusCode, r.Body)
		}
		anon := e.Client()
		if r := anon.Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "EXCLUIR"}); r.StatusCode != 401 || r.Err(t).Error.Message != "Sessão inválida. Faça login novamente." {
			t.Fatalf("no session: %d %s", r.StatusCode, r.Body)
		}
		if r := c.Do("DELETE", "/api/account", map[string]string{"password": "segredo1", "confirmation": "EXCLUIR"}); r.StatusCode != 200 {
			t.Fatalf("delete: %d %s", r.StatusCode, r.Body)
		}
		if r := e.Client().Login("ana@example.com", "segredo1"); r.StatusCode != 401 {
			t.Fatal("deleted account must not sign in")
		}
		if r := c.Do("GET", "/api/me", nil); r.StatusCode != 401 {
			t.Fatal("deleted account's access token must not reach its data")
		}
		ctx := context.Background()
		for _, table := range []string{"users", "profiles", "refresh_tokens"} {
			var n int
			if err := e.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 1 && table != "refresh_tokens" {
				t.Errorf("%s has %d rows; only the other owner's should remain", table, n)
			}
		}
		var mine int
		_ = e.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM refresh_tokens rt JOIN users u ON u.id = rt.user_id WHERE u.email = ?`, "ana@example.com").Scan(&mine)
		if mine != 0 {
			t.Error("refresh tokens of the deleted account remain")
		}
		if r := other.Do("GET", "/api/me", nil); r.StatusCode != 200 {
			t.Fatal("the other owner must be untouched")
		}
		// The e-mail is free again for a new account.
		e.Client().Signup("Ana de novo", "ana@example.com", "outra123", "peixe")
	})
}

func TestSignup_IsRateLimitedPerEmailAndPerIP(t *testing.T) {
	servertest.Each(t, func(t *testing.T, e *servertest.Env) {
		body := map[string]string{"name": "Ana", "email": "alvo@example.com", "password": "123456", "recoveryKeyword": "abc"}
		e.Client().Signup("Ana", "alvo@example.com", "123456", "abc")
		for i := range 4 {
			if r := e.Client().Do("POST", "/api/auth/signup", body); r.StatusCode != 409 {
				t.Fatalf("attempt %d: %d", i+2, r.StatusCode)
			}
		}
		if r := e.Client().Do("POST", "/api/auth/signup", body); r.StatusCode != 429 {
			t.Fatalf("6th signup for one e-mail: %d %s", r.StatusCode, r.Body)
		}
		// Other e-mails from the same address are limited too, past 20 an hour.
		created := 0
		for i := range 20 {
			r := e.Client().Do("POST", "/api/auth/signup", map[string]string{"name": "X", "email": "p" + string(rune('a'+i)) + "@example.com", "password": "123456", "recoveryKeyword": "abc"})
			if r.StatusCode == 201 {
				created++
			}
		}
		if created != 14 { // 20 per IP per hour, 6 already spent
			t.Fatalf("created %d accounts from one IP, want 14", created)
		}
	})
}
