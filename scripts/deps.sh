#!/usr/bin/env bash
# Installs what zklocks' tests and demo need from Debian when it is missing:
# ZooKeeper (server and recipe jars, and the servlet API its AdminServer needs), kazoo for /usr/bin/python3, Curator's
# jars, tmux for the end-to-end terminal tests, OpenSSH's client and sshd for zklocks serve's, and Prometheus (server and
# promtool) for the exporter's and alerting rules' tests, and MIT Kerberos' KDC and its admin tools for the
# Kerberos tests' realm. Java 17 and Go come
# with the machine.
set -euo pipefail

need=()
[ -f /usr/share/java/zookeeper.jar ] && [ -f /usr/share/java/zookeeper-recipes-lock.jar ] || need+=(zookeeper)
/usr/bin/python3 -c 'import kazoo' 2>/dev/null || need+=(python3-kazoo)
[ -f /usr/share/java/curator-recipes.jar ] || need+=(libcurator-recipes-java)
# Debian's ZooKeeper starts its AdminServer only with the servlet API on its
# class path; the tests of the AdminServer add this jar.
[ -f /usr/share/java/servlet-api.jar ] || need+=(libservlet-api-java)
command -v tmux >/dev/null || need+=(tmux)
# The transaction log benchmark measures zklocks' peak memory under GNU time.
[ -x /usr/bin/time ] || need+=(time)
# zklocks serve's end-to-end tests connect with OpenSSH's own client.
[ -x /usr/bin/ssh ] && [ -x /usr/bin/ssh-keygen ] || need+=(openssh-client)
# Its certificate tests check each certificate against OpenSSH's own sshd too.
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
[ -x /usr/bin/time ] || need+=(time) # make bench-scale: peak memory of one-shot commands
command -v java >/dev/null || need+=(default-jre-headless)
[ -x /usr/bin/prometheus ] && [ -x /usr/bin/promtool ] || need+=(prometheus)
# internal/testkit/kdc: krb5kdc and kdb5_util (krb5-kdc), kadmin.local (krb5-admin-server).
[ -x /usr/sbin/krb5kdc ] && [ -x /usr/sbin/kdb5_util ] || need+=(krb5-kdc)
[ -x /usr/sbin/kadmin.local ] || need+=(krb5-admin-server)
[ -x /usr/bin/kinit ] || need+=(krb5-user) # a credential cache, as an operator's kinit leaves it

[ ${#need[@]} -eq 0 ] && exit 0

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "installing ${need[*]}" >&2
if ! $SUDO apt-get install -y "${need[@]}"; then
  $SUDO apt-get update
  $SUDO apt-get install -y "${need[@]}"
fi
