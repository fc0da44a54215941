package cluster

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// PKI is the set of files that secure one cluster, all made fresh by every Up and thrown
// away by Down. One CA signs both the API server's serving certificate and the admin's
// client certificate, so the same ca.crt lets clients trust the server and lets the server
// (--client-ca-file) trust the admin. The service-account key pair signs and checks the
// tokens the API server issues; nothing in the workshop uses them, but the API server will
// not start without them. ECDSA P-256 keys are used because they generate in microseconds.
type PKI struct {
	CA, ServingCert, ServingKey string // PEM files for --client-ca-file, --tls-cert-file, --tls-private-key-file
	AdminCert, AdminKey         string // PEM files of the system:masters client, embedded in the kubeconfig
	SAKey, SAPub                string // PEM files for --service-account-signing-key-file, --service-account-key-file
}

// adminUser is the admin's name. Its group, system:masters, is what RBAC lets do anything.
const adminUser = "walkthrough-admin"

// pkiFiles names the files of a PKI in dir.
func pkiFiles(dir string) PKI {
	return PKI{
		CA:          filepath.Join(dir, "ca.crt"),
		ServingCert: filepath.Join(dir, "apiserver.crt"), ServingKey: filepath.Join(dir, "apiserver.key"),
		AdminCert: filepath.Join(dir, "admin.crt"), AdminKey: filepath.Join(dir, "admin.key"),
		SAKey: filepath.Join(dir, "sa.key"), SAPub: filepath.Join(dir, "sa.pub"),
	}
}

// PKIIn is the PKI of the cluster that is up: a server of the workshop's own (chapter 07's,
// in the fault tier) can serve with kube-apiserver's certificate, which names 127.0.0.1.
func PKIIn(p Paths) PKI { return pkiFiles(pkiDir(p)) }

// pkiDir is where Up writes the cluster's PKI.
func pkiDir(p Paths) string { return filepath.Join(p.Run(), "pki") }

// NewPKI writes a fresh PKI into dir.
func NewPKI(dir string) (PKI, error) {
	p := pkiFiles(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return p, err
	}
	now := time.Now()
	caKey, err := newKey()
	if err != nil {
		return p, err
	}
	caTmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: "walkthrough-ca"},
		NotBefore:             now.Add(-time.Hour), // tolerate a little clock skew
		NotAfter:              now.Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := sign(caTmpl, caTmpl, caKey, caKey)
	if err != nil {
		return p, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return p, err
	}
	if err := writePEM(p.CA, "CERTIFICATE", caDER); err != nil {
		return p, err
	}

	// The serving certificate names every way a client may dial this API server: loopback,
	// and the in-cluster names and service IP (10.0.0.1 is the first address of the default
	// --service-cluster-ip-range) that the API server itself expects to be valid.
	serving := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:   caTmpl.NotBefore,
		NotAfter:    caTmpl.NotAfter,
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")},
	}
	if err := leaf(serving, caCert, caKey, p.ServingCert, p.ServingKey); err != nil {
		return p, err
	}
	// Client certificates authenticate by subject: CN is the user, O the groups.
	admin := &x509.Certificate{
		Subject:     pkix.Name{CommonName: adminUser, Organization: []string{"system:masters"}},
		NotBefore:   caTmpl.NotBefore,
		NotAfter:    caTmpl.NotAfter,
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if err := leaf(admin, caCert, caKey, p.AdminCert, p.AdminKey); err != nil {
		return p, err
	}

	saKey, err := newKey()
	if err != nil {
		return p, err
	}
	if err := writeKey(p.SAKey, saKey); err != nil {
		return p, err
	}
	pub, err := x509.MarshalPKIXPublicKey(saKey.Public())
	if err != nil {
		return p, err
	}
	return p, writePEM(p.SAPub, "PUBLIC KEY", pub)
}

// leaf makes a key, has the CA sign tmpl for it, and writes both.
func leaf(tmpl, ca *x509.Certificate, caKey crypto.Signer, certFile, keyFile string) error {
	key, err := newKey()
	if err != nil {
		return err
	}
	der, err := sign(tmpl, ca, key, caKey)
	if err != nil {
		return err
	}
	if err := writePEM(certFile, "CERTIFICATE", der); err != nil {
		return err
	}
	return writeKey(keyFile, key)
}

func newKey() (*ecdsa.PrivateKey, error) { return ecdsa.GenerateKey(elliptic.P256(), rand.Reader) }

func sign(tmpl, parent *x509.Certificate, key, parentKey crypto.Signer) ([]byte, error) {
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, err
	}
	tmpl.SerialNumber = serial
	return x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), parentKey)
}

func writeKey(file string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return writePEM(file, "EC PRIVATE KEY", der)
}

func writePEM(file, typ string, der []byte) error {
	return os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600)
}
