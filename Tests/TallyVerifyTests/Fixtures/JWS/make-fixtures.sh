#!/bin/sh
# Regenerates the test PKI of the JWS tests (generated keys, never real Apple ones). Run from anywhere:
#   sh Tests/TallyVerifyTests/Fixtures/JWS/make-fixtures.sh
# Validity counts from the day it runs: root 40 years, intermediates 35, leaves 20.
# The tests sign payloads dated inside and outside those spans (see JWSTestPKI in JWSFixturesTests.swift).
set -eu
cd "$(dirname "$0")"
rm -f ./*.pem ./*.key ./*.cnf ./*.csr

cat > ext.cnf <<'CNF'
[root]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[intermediate]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.2.1 = ASN1:NULL
[intermediate_no_ca]
basicConstraints = critical, CA:FALSE
keyUsage = critical, keyCertSign, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.2.1 = ASN1:NULL
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
1.2.840.113635.100.6.11.1 = ASN1:NULL
[leaf_no_oid]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
CNF

key() { openssl ecparam -name prime256v1 -genkey -noout -out "$1.key"; }
root() { # name subject
    key "$1"
    openssl req -x509 -new -key "$1.key" -subj "$2" -days 14600 -sha256 -set_serial 1 \
        -extensions root -config ext.cnf -out "$1.pem" 2>/dev/null ||
    openssl req -x509 -new -key "$1.key" -subj "$2" -days 14600 -sha256 -set_serial 1 \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" -out "$1.pem"
}
issue() { # name subject issuer section days serial
    key "$1"
    openssl req -new -key "$1.key" -subj "$2" -out "$1.csr"
    openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -set_serial "$6" -days "$5" -sha256 \
        -extfile ext.cnf -extensions "$4" -out "$1.pem"
    rm "$1.csr"
}

root root "/CN=Tally Test Root/O=Tally Tests"
issue intermediate "/CN=Tally Test Intermediate/O=Tally Tests" root intermediate 12775 2
issue leaf "/CN=Tally Test Signing Leaf/O=Tally Tests" intermediate leaf 7300 3
issue leaf-no-oid "/CN=Tally Test Leaf Without OID/O=Tally Tests" intermediate leaf_no_oid 7300 4
issue intermediate-not-ca "/CN=Tally Test Intermediate Not CA/O=Tally Tests" root intermediate_no_ca 12775 5
issue leaf-under-not-ca "/CN=Tally Test Leaf Under Non-CA/O=Tally Tests" intermediate-not-ca leaf 7300 6
root other-root "/CN=Tally Untrusted Root/O=Tally Tests"
issue other-intermediate "/CN=Tally Untrusted Intermediate/O=Tally Tests" other-root intermediate 12775 7
issue other-leaf "/CN=Tally Untrusted Leaf/O=Tally Tests" other-intermediate leaf 7300 8
rm ext.cnf
