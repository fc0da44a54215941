package cluster

import (
	"encoding/base64"
	"fmt"
	"os"
)

// writeKubeconfig writes an admin kubeconfig for server to file, with the CA and the admin's
// client certificate embedded, so the file works on its own: KUBECONFIG=file kubectl get ns.
// It is written by hand rather than with clientcmd because it is six fixed fields.
func writeKubeconfig(file, server string, pki PKI) error {
	data := func(name string) (string, error) {
		b, err := os.ReadFile(name)
		return base64.StdEncoding.EncodeToString(b), err
	}
	ca, err := data(pki.CA)
	if err != nil {
		return err
	}
	cert, err := data(pki.AdminCert)
	if err != nil {
		return err
	}
	key, err := data(pki.AdminKey)
	if err != nil {
		return err
	}
	cfg := fmt.Sprintf(`# Written by workshop/cluster for the local walkthrough control plane; removed by Down.
apiVersion: v1
kind: Config
clusters:
- name: walkthrough
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: %s
  user:
    client-certificate-data: %s
    client-key-data: %s
contexts:
- name: walkthrough
  context:
    cluster: walkthrough
    user: %s
current-context: walkthrough
`, server, ca, adminUser, cert, key, adminUser)
	return os.WriteFile(file, []byte(cfg), 0o600)
}
