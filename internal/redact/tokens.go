package redact

import "strings"

// Byte classes, built once.
var (
	alnum   = classOf("A-Za-z0-9")
	ident   = classOf("A-Za-z0-9_.-")
	b64url  = classOf("A-Za-z0-9_-")
	b64     = classOf("A-Za-z0-9+/=")
	upperD  = classOf("A-Z0-9")
	lowHex  = classOf("0-9a-f")
	jwtSet  = classOf("A-Za-z0-9_.=-")
	sgSet   = classOf("A-Za-z0-9_.-")
	slackWH = classOf("A-Za-z0-9/")
	bearer  = classOf("A-Za-z0-9_.=+/~-")
	// entropyChars are the bytes of a candidate high-entropy string.
	entropyChars = classOf("A-Za-z0-9+/_=-")
)

// classOf builds a byte set from a list of bytes and ranges ("a-z").
func classOf(spec string) *[256]bool {
	var t [256]bool
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := int(spec[i]); c <= int(spec[i+2]); c++ {
				t[c] = true
			}
			i += 2
			continue
		}
		t[spec[i]] = true
	}
	return &t
}

// A tokenRule finds a credential by its fixed prefix: the prefix, then a
// body of bytes from one set, between min and max bytes long (max 0: no
// limit). An exact-length body (min == max) must not run on.
type tokenRule struct {
	kind   string
	prefix string
	body   *[256]bool
	min    int
	max    int
	// check, when set, vets the whole token (prefix included).
	check func(tok string) bool
}

// tokenRules by the first byte of their prefix. Longer prefixes come
// before shorter ones that share a start ("sk-ant-" before "sk-").
var tokenRules = func() [256][]tokenRule {
	var t [256][]tokenRule
	for _, r := range []tokenRule{
		{kind: "anthropic-api-key", prefix: "sk-ant-", body: b64url, min: 20},
		{kind: "openai-api-key", prefix: "sk-proj-", body: b64url, min: 20, check: mixed},
		{kind: "openai-api-key", prefix: "sk-svcacct-", body: b64url, min: 20, check: mixed},
		{kind: "openai-api-key", prefix: "sk-admin-", body: b64url, min: 20, check: mixed},
		{kind: "openai-api-key", prefix: "sk-", body: b64url, min: 20, check: mixed},
		{kind: "stripe-key", prefix: "sk_live_", body: alnum, min: 16},
		{kind: "stripe-key", prefix: "sk_test_", body: alnum, min: 16},
		{kind: "stripe-key", prefix: "rk_live_", body: alnum, min: 16},
		{kind: "stripe-key", prefix: "rk_test_", body: alnum, min: 16},
		{kind: "stripe-key", prefix: "whsec_", body: alnum, min: 24},
		{kind: "github-token", prefix: "github_pat_", body: classOf("A-Za-z0-9_"), min: 22},
		{kind: "github-token", prefix: "ghp_", body: alnum, min: 36},
		{kind: "github-token", prefix: "gho_", body: alnum, min: 36},
		{kind: "github-token", prefix: "ghu_", body: alnum, min: 36},
		{kind: "github-token", prefix: "ghs_", body: alnum, min: 36},
		{kind: "github-token", prefix: "ghr_", body: alnum, min: 36},
		{kind: "gitlab-token", prefix: "glpat-", body: b64url, min: 20},
		{kind: "gitlab-token", prefix: "glrt-", body: b64url, min: 20},
		{kind: "slack-token", prefix: "xoxb-", body: b64url, min: 10},
		{kind: "slack-token", prefix: "xoxa-", body: b64url, min: 10},
		{kind: "slack-token", prefix: "xoxp-", body: b64url, min: 10},
		{kind: "slack-token", prefix: "xoxr-", body: b64url, min: 10},
		{kind: "slack-token", prefix: "xoxs-", body: b64url, min: 10},
		{kind: "slack-token", prefix: "xoxe-", body: b64url, min: 10},
		{kind: "slack-token", prefix: "xapp-", body: b64url, min: 10},
		{kind: "slack-webhook", prefix: "hooks.slack.com/services/", body: slackWH, min: 20},
		{kind: "aws-access-key", prefix: "AKIA", body: upperD, min: 16, max: 16},
		{kind: "aws-access-key", prefix: "ASIA", body: upperD, min: 16, max: 16},
		{kind: "aws-access-key", prefix: "ABIA", body: upperD, min: 16, max: 16},
		{kind: "aws-access-key", prefix: "ACCA", body: upperD, min: 16, max: 16},
		{kind: "google-api-key", prefix: "AIza", body: b64url, min: 35, max: 35},
		{kind: "npm-token", prefix: "npm_", body: alnum, min: 36},
		{kind: "pypi-token", prefix: "pypi-", body: b64url, min: 50},
		{kind: "huggingface-token", prefix: "hf_", body: alnum, min: 30},
		{kind: "twilio-api-key", prefix: "SK", body: lowHex, min: 32, max: 32},
		{kind: "sendgrid-api-key", prefix: "SG.", body: sgSet, min: 33, check: sendgrid},
		{kind: "digitalocean-token", prefix: "dop_v1_", body: lowHex, min: 64},
		{kind: "shopify-token", prefix: "shpat_", body: alnum, min: 32},
		{kind: "shopify-token", prefix: "shpss_", body: alnum, min: 32},
		{kind: "age-secret-key", prefix: "AGE-SECRET-KEY-1", body: upperD, min: 50},
		{kind: "jwt", prefix: "eyJ", body: jwtSet, min: 20, check: jwt},
	} {
		c := r.prefix[0]
		t[c] = append(t[c], r)
	}
	return t
}()

// matchToken tries the token rules at i, a word start. It returns the
// end of the token, or 0.
func matchToken(text string, i int) (end int, kind string) {
	rules := tokenRules[text[i]]
	for k := range rules {
		r := &rules[k]
		if !strings.HasPrefix(text[i:], r.prefix) {
			continue
		}
		j := i + len(r.prefix)
		limit := len(text)
		if r.max > 0 {
			limit = min(limit, j+r.max+1)
		}
		e := j
		for e < limit && r.body[text[e]] {
			e++
		}
		// A dot or dash ends a sentence or a word more often than a token;
		// a JWT keeps the dot of an empty signature.
		for e > j && (text[e-1] == '.' || text[e-1] == '-') {
			if r.body == jwtSet && text[e-1] == '.' && strings.Count(text[i:e], ".") <= 2 {
				break
			}
			e--
		}
		n := e - j
		if n < r.min || r.max > 0 && n > r.max {
			continue
		}
		if r.min == r.max && e < len(text) && alnum[text[e]] {
			continue
		}
		if r.check != nil && !r.check(text[i:e]) {
			continue
		}
		return e, r.kind
	}
	return 0, ""
}

// mixed reports whether tok has both digits and letters after its
// prefix: keys are random, kebab-case words are not.
func mixed(tok string) bool {
	var digit, letter bool
	for i := strings.IndexByte(tok, '-') + 1; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		}
	}
	return digit && letter
}

// sendgrid: SG.<16+>.<16+>.
func sendgrid(tok string) bool {
	parts := strings.Split(tok[3:], ".")
	return len(parts) == 2 && len(parts[0]) >= 16 && len(parts[1]) >= 16
}

// jwt: header.payload.signature, the payload JSON too (eyJ), the
// signature possibly empty (alg none).
func jwt(tok string) bool {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return false
	}
	return len(parts[0]) >= 10 && len(parts[1]) >= 10 && strings.HasPrefix(parts[1], "eyJ")
}
