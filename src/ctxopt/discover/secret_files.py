"""Files that hold secrets by their very name: never read, never indexed (pure).

A prompt leaves the machine, so a file whose whole purpose is to hold credentials is
skipped by name before it is opened, tracked or not.  Each entry says why it is here;
templates that document the variables (`.env.example`) are kept, they are docs.
Names are matched lower-cased.
"""

from __future__ import annotations

import re

# dotenv files hold the deployment's credentials (DATABASE_URL, STRIPE_SECRET_KEY=...):
# ".env", ".env.local", ".env.production", "prod.env", and direnv's ".envrc".
# Their templates document the variable names with placeholder values: kept.
ENV_TEMPLATE_SUFFIXES = frozenset(
    {"example", "sample", "template", "dist", "defaults", "schema", "tpl", "tmpl"}
)

SECRET_NAMES = frozenset(
    {
        # SSH private keys (their ".pub" halves are public and kept)
        "id_rsa",
        "id_dsa",
        "id_ecdsa",
        "id_ed25519",
        "id_ecdsa_sk",
        "id_ed25519_sk",
        # login and token stores of command-line tools: machine passwords (netrc),
        # PostgreSQL passwords, git's stored credentials, registry tokens of npm and
        # PyPI uploads, the AWS CLI's keys, Docker's registry auth
        ".netrc",
        "_netrc",
        ".pgpass",
        ".git-credentials",
        ".npmrc",
        ".pypirc",
        ".dockercfg",
        "credentials",
        ".htpasswd",
        ".envrc",
        # Google OAuth files and generic credential dumps
        "credentials.json",
        "token.json",
        "tokens.json",
        # framework secret stores (Rails secrets.yml, Streamlit secrets.toml, ...)
        "secrets.yml",
        "secrets.yaml",
        "secrets.json",
        "secrets.toml",
        # Ansible vault passwords
        ".vault_pass",
        ".vault-pass",
        ".vault_password",
        # Terraform state keeps every resource's secrets in plain text
        "terraform.tfstate",
        "terraform.tfstate.backup",
    }
)

SECRET_EXTENSIONS = frozenset(
    {
        ".env",  # "prod.env", "secrets.env": docker --env-file files
        ".pem",  # PEM bundles: private keys, or certificates of no use to a model
        ".key",  # private keys (a Keynote deck shares the extension; not text either)
        ".ppk",  # PuTTY private keys
        ".p8",  # PKCS#8 private keys (Apple push and sign-in keys)
        ".p12",  # PKCS#12 key stores
        ".pfx",  # same, Windows' name
        ".jks",  # Java key stores
        ".jceks",
        ".bks",  # Bouncy Castle key stores
        ".keystore",  # Android signing key stores
        ".keytab",  # Kerberos keys
        ".kdbx",  # KeePass password databases
        ".tfstate",  # Terraform state (see above)
        ".gpg",  # encrypted files and secret key rings
        ".age",  # age-encrypted files
    }
)

# Google Cloud service-account keys and OAuth client secrets, as their consoles name them:
# "service-account.json", "my-project-service_account-key.json", "client_secret_123.json".
_CREDENTIAL_JSON = re.compile(r"(service[-_]?account|client[-_]?secret).*\.json\Z")


def is_secret_file(name: str, extension: str) -> bool:
    """True when a lower-cased file name marks a file that holds secrets."""
    if name in SECRET_NAMES or extension in SECRET_EXTENSIONS:
        return True
    if name == ".env" or name.startswith(".env."):
        return name.rpartition(".")[2] not in ENV_TEMPLATE_SUFFIXES
    return extension == ".json" and _CREDENTIAL_JSON.search(name) is not None
