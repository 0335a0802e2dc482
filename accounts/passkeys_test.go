package accounts

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"slices"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/go-webauthn/webauthn/protocol"
)

// authenticator is a software passkey, enough for the ceremonies'
// checks: one P-256 key, attestation "none", the flags of a passkey that
// verified its user.
type authenticator struct {
	t      *testing.T
	key    *ecdsa.PrivateKey
	id     []byte
	origin string
	rpID   string
	count  uint32
}

func newAuthenticator(t *testing.T, origin, rpID string) *authenticator {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &authenticator{t: t, key: key, id: id, origin: origin, rpID: rpID}
}

var b64 = base64.RawURLEncoding.EncodeToString

// clientData is the browser's collected client data of a ceremony.
func (a *authenticator) clientData(kind string, challenge []byte) []byte {
	data, err := json.Marshal(map[string]any{"type": kind, "challenge": b64(challenge), "origin": a.origin})
	if err != nil {
		a.t.Fatal(err)
	}
	return data
}

// authData is the authenticator data: the RP ID's hash, the flags (user
// present and verified, and attested data when attested is set), the
// signature count, and the attested credential.
func (a *authenticator) authData(attested []byte) []byte {
	rp := sha256.Sum256([]byte(a.rpID))
	flags := byte(0x05)
	if attested != nil {
		flags |= 0x40
	}
	var out bytes.Buffer
	out.Write(rp[:])
	out.WriteByte(flags)
	binary.Write(&out, binary.BigEndian, a.count)
	out.Write(attested)
	return out.Bytes()
}

// register answers a registration's options as a browser would.
func (a *authenticator) register(options any) []byte {
	creation := options.(*protocol.CredentialCreation)
	point, err := a.key.PublicKey.ECDH()
	if err != nil {
		a.t.Fatal(err)
	}
	raw := point.Bytes() // 0x04, X, Y
	cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: raw[1:33], -3: raw[33:]})
	if err != nil {
		a.t.Fatal(err)
	}
	var attested bytes.Buffer
	attested.Write(make([]byte, 16)) // AAGUID
	binary.Write(&attested, binary.BigEndian, uint16(len(a.id)))
	attested.Write(a.id)
	attested.Write(cose)
	object, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": a.authData(attested.Bytes())})
	if err != nil {
		a.t.Fatal(err)
	}
	return a.answer(map[string]any{"clientDataJSON": b64(a.clientData("webauthn.create", creation.Response.Challenge)),
		"attestationObject": b64(object)})
}

// logIn answers a login's options, signed, as the passkey of user.
func (a *authenticator) logIn(options any, user string) []byte {
	assertion := options.(*protocol.CredentialAssertion)
	a.count++
	data := a.authData(nil)
	client := a.clientData("webauthn.get", assertion.Response.Challenge)
	hash := sha256.Sum256(client)
	digest := sha256.Sum256(slices.Concat(data, hash[:]))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		a.t.Fatal(err)
	}
	return a.answer(map[string]any{"clientDataJSON": b64(client), "authenticatorData": b64(data),
		"signature": b64(sig), "userHandle": b64([]byte(user))})
}

func (a *authenticator) answer(response map[string]any) []byte {
	body, err := json.Marshal(map[string]any{"id": b64(a.id), "rawId": b64(a.id), "type": "public-key", "response": response})
	if err != nil {
		a.t.Fatal(err)
	}
	return body
}

// TestPasskeyCeremonies: a passkey added by its account logs that
// account in; a ceremony serves once and for its own kind; a forged
// signature logs no one in.
func TestPasskeyCeremonies(t *testing.T) {
	s := newService(t, roomy)
	ada := mustSignUp(t, s, "ada", "10.0.0.1").Account
	site := Site{Host: "localhost:8080"}
	key := newAuthenticator(t, "http://localhost:8080", "localhost")

	begun, err := s.BeginPasskey(t.Context(), site, ada)
	if err != nil {
		t.Fatal(err)
	}
	answer := key.register(begun.Options)
	added, err := s.FinishPasskey(t.Context(), site, ada, begun.ID, " laptop ", bytes.NewReader(answer))
	if err != nil {
		t.Fatalf("adding a passkey: %v", err)
	}
	if added.Name != "laptop" || added.ID != b64(key.id) {
		t.Errorf("the passkey added: %+v; want laptop, %s", added, b64(key.id))
	}
	_, err = s.FinishPasskey(t.Context(), site, ada, begun.ID, "", bytes.NewReader(answer))
	refusedAs(t, "a registration's ceremony again", err, NotFound)

	login, err := s.BeginPasskeyLogin(t.Context(), site)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.FinishPasskeyLogin(t.Context(), site, login.ID, "10.0.0.2", bytes.NewReader(key.logIn(login.Options, ada.ID)))
	if err != nil || sess.Account.ID != ada.ID || sess.Token == "" {
		t.Fatalf("a passkey login: %+v, %v; want a session of ada's", sess, err)
	}
	if a, ok := s.Session(t.Context(), sess.Token); !ok || a.ID != ada.ID {
		t.Errorf("the passkey login's session: %+v, %v", a, ok)
	}

	forger := newAuthenticator(t, "http://localhost:8080", "localhost")
	forger.id = key.id // the same credential id, another key
	login, _ = s.BeginPasskeyLogin(t.Context(), site)
	_, err = s.FinishPasskeyLogin(t.Context(), site, login.ID, "10.0.0.2", bytes.NewReader(forger.logIn(login.Options, ada.ID)))
	refusedAs(t, "a login signed by another key", err, BadLogin)

	begun, _ = s.BeginPasskey(t.Context(), site, ada)
	_, err = s.FinishPasskeyLogin(t.Context(), site, begun.ID, "10.0.0.2", bytes.NewReader(key.logIn(login.Options, ada.ID)))
	refusedAs(t, "a login finishing a registration's ceremony", err, Forbidden)

	_, err = s.BeginPasskey(t.Context(), Site{Host: "127.0.0.1:8080"}, ada)
	refusedAs(t, "a passkey for an IP address", err, Invalid)

	list, err := s.Passkeys(t.Context(), ada.ID)
	if err != nil || len(list) != 1 || list[0].Name != "laptop" {
		t.Fatalf("ada's passkeys: %+v, %v; want the laptop's", list, err)
	}
	if err := s.DeletePasskey(t.Context(), ada.ID, list[0].ID); err != nil {
		t.Fatal(err)
	}
	refusedAs(t, "deleting it again", s.DeletePasskey(t.Context(), ada.ID, list[0].ID), NotFound)
}
