package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.testing.ChrootTest;
import dev.gpugen.testing.Converged;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import dev.gpugen.testing.TestRoot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Play 02b (kubernetes.distribution kubeadm) for real, in a Debian 12 root through the chroot
 * connection: the prerequisites (kernel modules and sysctls persisted, swap out of fstab),
 * containerd from a stand-in of the distribution's archive with runc on the systemd cgroup driver,
 * and kubelet, kubeadm and kubectl from a stand-in of pkgs.k8s.io on 127.0.0.1 (the minor's
 * repository path, its Release.key, signed indexes). The run converges, then changes nothing.
 * kubeadm init and kubeadm join run against a kubeadm stand-in on an HA control plane of three
 * chroot roots and a GPU node (no kubelet can run in a chroot); the CNI's Helm install is covered
 * by the syntax check and production lint of every render (AnsibleToolsTest), and
 * KubeadmSecretsTest covers no_log and the render's freedom from tokens.
 */
@RealToolsTest
class KubeadmTest {
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);

  @TempDir Path tmp;

  private static AptRepositoryStandIn.Deb deb(String name, String version, String depends) {
    return new AptRepositoryStandIn.Deb(name, version, "amd64", depends, Map.of());
  }

  @ChrootTest
  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void thePrerequisitesAndPackagesConvergeAtTheSpecsMinorThenChangeNothing() throws Exception {
    // The golden kubeadm spec: Kubernetes 1.34, Calico.
    Path dir = RenderedCase.render("static-kubeadm", tmp.resolve("render")).ansible();
    List<AptRepositoryStandIn.Deb> k8s = new ArrayList<>();
    for (String v : List.of("1.34.1-1.1", "1.34.2-1.1", "1.35.0-1.1")) {
      k8s.add(deb("kubelet", v, "kubernetes-cni"));
      k8s.add(deb("kubeadm", v, "cri-tools"));
      k8s.add(deb("kubectl", v, ""));
    }
    k8s.add(deb("cri-tools", "1.34.0-1.1", ""));
    k8s.add(deb("kubernetes-cni", "1.7.1-1.1", ""));
    List<AptRepositoryStandIn.Deb> archive = List.of(deb("containerd", "1.7.28-0ubuntu1", ""));

    Path root = TestRoot.fresh(tmp.resolve("root"));
    try (AptRepositoryStandIn repo =
            new AptRepositoryStandIn(tmp, "/core:/stable:/v1.34/deb", "kubernetes", k8s);
        AptRepositoryStandIn ubuntu =
            new AptRepositoryStandIn(tmp, "/ubuntu", "ubuntu-archive", archive)) {
      Files.writeString(root.resolve("etc/apt/sources.list"), "");
      ubuntu.configure(root);
      Files.writeString(
          root.resolve("etc/fstab"),
          "UUID=1234 / ext4 defaults 0 1\n/swap.img\tnone\tswap\tsw\t0\t0\n");
      String base = repo.url().substring(0, repo.url().length() - "/v1.34/deb".length());

      Map<String, Integer> first = run(dir, root, base, "first run");
      assertEquals(0, first.get("failed"), first::toString);
      assertTrue(first.get("changed") > 0, first::toString);
      Map<String, Integer> second = run(dir, root, base, "second run");
      assertEquals(0, second.get("changed"), "second run changed something: " + second);

      // The spec's minor, newest patch; the next minor (even if offered) is not taken.
      Map<String, String> installed = Dpkg.installed(root);
      for (String p : List.of("kubelet", "kubeadm", "kubectl")) {
        assertEquals("1.34.2-1.1", installed.get(p), installed::toString);
      }
      assertEquals(
          List.of("kubelet", "kubeadm", "kubectl"),
          Dpkg.held(root, List.of("kubelet", "kubeadm", "kubectl")));
      assertEquals("1.7.28-0ubuntu1", installed.get("containerd"), installed::toString);
      assertEquals(
          "deb [signed-by=/etc/apt/keyrings/kubernetes-apt-keyring.asc] " + repo.url() + "/ /",
          lastLine(root.resolve("etc/apt/sources.list.d/kubernetes.list")));
      assertTrue(
          Files.readString(root.resolve("etc/apt/keyrings/kubernetes-apt-keyring.asc"))
              .startsWith("-----BEGIN PGP PUBLIC KEY BLOCK-----"));
      assertTrue(repo.requests().contains("GET /core:/stable:/v1.34/deb/Release.key"));
      assertTrue(repo.requests().contains("GET /core:/stable:/v1.34/deb/InRelease"));
      assertEquals(List.of(), repo.misses(), repo.requests()::toString);

      // Prerequisites of
      // https://kubernetes.io/docs/setup/production-environment/container-runtimes/
      assertEquals(
          List.of("overlay", "br_netfilter"),
          settings(root.resolve("etc/modules-load.d/gpugen-kubernetes.conf")));
      List<String> sysctl = settings(root.resolve("etc/sysctl.d/60-gpugen-kubernetes.conf"));
      for (String s :
          List.of(
              "net.bridge.bridge-nf-call-iptables=1",
              "net.bridge.bridge-nf-call-ip6tables=1",
              "net.ipv4.ip_forward=1")) {
        assertTrue(sysctl.contains(s), sysctl::toString);
      }
      List<String> fstab = Files.readAllLines(root.resolve("etc/fstab"));
      assertEquals("UUID=1234 / ext4 defaults 0 1", fstab.get(0));
      assertTrue(fstab.get(1).startsWith("# /swap.img\tnone\tswap"), fstab::toString);

      // containerd's runc on the systemd cgroup driver (the file did not exist: created).
      String config = Files.readString(root.resolve("etc/containerd/config.toml"));
      assertTrue(config.startsWith("version = 2\n"), config);
      assertTrue(
          config.contains(
              "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.runc.options]\n"
                  + "  SystemdCgroup = true\n"),
          config);
    } finally {
      TestRoot.delete(root);
    }
  }

  /**
   * A kubeadm stand-in (/usr/bin/kubeadm in each root): it records every call and answers as
   * kubeadm does (the outputs of the HA page's steps): init writes the cluster's CA, admin.conf,
   * kubelet.conf (trusting the CA) and the API server's static pod manifest; token create prints a
   * join command, upload-certs prints a new certificate key on its last line; join writes a
   * kubelet.conf trusting the CA the discovery hash pins (/etc/fake-cluster-ca, written by the
   * test), and with --control-plane the control-plane files too. Anything else fails.
   */
  private static final String FAKE_KUBEADM =
      """
      #!/bin/sh
      echo "$*" >> /var/log/fake-kubeadm.log
      control_plane() {
        mkdir -p /etc/kubernetes/pki /etc/kubernetes/manifests
        cp /etc/fake-cluster-ca /etc/kubernetes/pki/ca.crt
        echo "client-key-data: ADMINSECRET" > /etc/kubernetes/admin.conf
        echo "kind: Pod" > /etc/kubernetes/manifests/kube-apiserver.yaml
      }
      kubelet_conf() {
        mkdir -p /etc/kubernetes
        printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: kubernetes\n  cluster:\n    certificate-authority-data: %s\n    server: https://k8s-api.lab.example:6443\n' \
          "$(base64 -w0 /etc/fake-cluster-ca)" > /etc/kubernetes/kubelet.conf
      }
      case "$*" in
        "version --output short") echo v1.34.2 ;;
        "init phase upload-certs --upload-certs")
          n=$(grep -c '^init phase upload-certs' /var/log/fake-kubeadm.log)
          echo '[upload-certs] Storing the certificates in Secret "kubeadm-certs" in the "kube-system" Namespace'
          echo '[upload-certs] Using certificate key:'
          printf 'c%063d\n' "$n" ;;
        "token create --print-join-command --ttl=15m")
          echo "kubeadm join k8s-api.lab.example:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:HASH" ;;
        "init "*) control_plane; kubelet_conf ;;
        "join "*--control-plane*) control_plane; kubelet_conf ;;
        "join "*) kubelet_conf ;;
        *) echo "unexpected: $*" >&2; exit 2 ;;
      esac
      """
          .replace("HASH", "a".repeat(64));

  /**
   * A kubectl stand-in (/usr/bin/kubectl in each root): {@code get --raw=/readyz} through the admin
   * kubeconfig answers "ok" where an API server runs (its static pod manifest exists), else fails
   * as kubectl does when nothing listens. Anything else fails.
   */
  private static final String FAKE_KUBECTL =
      """
      #!/bin/sh
      echo "$*" >> /var/log/fake-kubectl.log
      case "$*" in
        "--kubeconfig=/etc/kubernetes/admin.conf get --raw=/readyz --request-timeout=10s")
          if [ -f /etc/kubernetes/manifests/kube-apiserver.yaml ]; then echo ok; exit 0; fi
          echo "The connection to the server k8s-api.lab.example:6443 was refused - did you specify the right host or port?" >&2
          exit 1 ;;
        *) echo "unexpected: $*" >&2; exit 2 ;;
      esac
      """;

  /** The CA certificate the stand-ins' cluster has (what kubeadm init would create). */
  private static final String CLUSTER_CA =
      "-----BEGIN CERTIFICATE-----\nMIIBCLUSTERA\n-----END CERTIFICATE-----\n";

  /**
   * Play 02b's bootstrap on an HA control plane (the static-kubeadm-ha golden: three hosts behind
   * k8s-api.lab.example:6443) and a GPU node, four chroot roots with the kubeadm stand-in: the
   * first host runs kubeadm init with the endpoint, its SAN and --upload-certs; the other two join
   * one after the other as control-plane nodes, each with a certificate key made for it; the GPU
   * node joins as a worker. Nothing secret reaches the output (-v), and a second run changes
   * nothing and joins nobody again. The CNI's Helm install (tag helm) needs an API server and is
   * left out.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void theHaControlPlaneInitsOnceJoinsEachHostOnceThenChangesNothing() throws Exception {
    haBootstrap(
        "static-kubeadm-ha",
        "",
        "k8s-api.lab.example:6443",
        "k8s-api.lab.example",
        "10.244.0.0/16");
  }

  /**
   * The same on the AWS render (aws-kubeadm: three control-plane instances behind an internal NLB):
   * the endpoint is no spec value but the host variable gpugen-inventory gives each control-plane
   * instance from its gpugen:kube-endpoint tag (InventoryBuilderTest), here set in the stand-in
   * inventory; init takes it and its host as the SAN, and the pod network avoids the VPC
   * (10.0.0.0/16).
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void onAwsTheEndpointComesFromTheInventory() throws Exception {
    String lb = "internal-kapi-0123456789.us-east-1.elb.amazonaws.com";
    haBootstrap(
        "aws-kubeadm",
        "gpugen_kube_endpoint: \"" + lb + ":6443\", ",
        lb + ":6443",
        lb,
        "10.244.0.0/16");
  }

  private void haBootstrap(
      String name, String controlPlaneVars, String endpoint, String san, String podCidr)
      throws Exception {
    Converged site = bootstrapped(name, controlPlaneVars);
    Path dir = site.render(tmp.resolve("ran"));
    Map<String, Path> roots = new LinkedHashMap<>();
    try {
      for (String h : HOSTS) {
        roots.put(h, site.root(h, tmp.resolve("root-" + h)));
      }
      RealTools.Result first = site.first();
      for (String h : HOSTS) {
        assertEquals(0, site.first(h).get("failed"), h);
      }
      // The calls of both runs: init and the joins once, then only kubeadm version again.
      assertEquals(
          List.of(
              "version --output short",
              "init --kubernetes-version=v1.34.2"
                  + " --control-plane-endpoint="
                  + endpoint
                  + " --apiserver-cert-extra-sans="
                  + san
                  + " --pod-network-cidr="
                  + podCidr
                  + " --service-cidr=10.96.0.0/12"
                  + " --upload-certs --skip-token-print",
              TOKEN,
              UPLOAD,
              TOKEN,
              UPLOAD,
              TOKEN,
              "version --output short"),
          calls(roots.get("cp-01")));
      assertEquals(
          List.of(JOIN + " --control-plane --certificate-key c" + "0".repeat(62) + "1"),
          calls(roots.get("cp-02")));
      assertEquals(
          List.of(JOIN + " --control-plane --certificate-key c" + "0".repeat(62) + "2"),
          calls(roots.get("cp-03")));
      assertEquals(List.of(JOIN), calls(roots.get("gpu-node-01")));
      // The admin kubeconfig reached the state folder, mode 0600.
      Path kubeconfig = dir.resolve(".state/kubeconfig");
      assertEquals("client-key-data: ADMINSECRET\n", Files.readString(kubeconfig));
      assertEquals(
          "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig)));
      // no_log: the token, the certificate keys and the kubeconfig never reach the output.
      for (String secret :
          List.of("abcdef.0123456789abcdef", "c" + "0".repeat(62), "ADMINSECRET", "a".repeat(64))) {
        assertFalse(first.output().contains(secret), secret + " in the output:\n" + first.output());
      }

      for (String h : HOSTS) {
        assertEquals(0, site.second(h).get("changed"), h + ": " + site.second().output());
      }
    } finally {
      deleteRoots(roots);
    }
  }

  /**
   * The first control-plane host replaced (a fresh root in its place) while the other two still run
   * the cluster: play 02b finds that cp-02's API server answers, so cp-01 joins the cluster as a
   * control-plane node with a token and certificate key made on cp-02; nobody runs kubeadm init
   * again, and the GPU node, which already joined, is left alone.
   */
  @ChrootTest
  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void aReplacedFirstControlPlaneHostJoinsTheClusterInsteadOfCreatingAnother() throws Exception {
    Converged site = bootstrapped("static-kubeadm-ha", "");
    Path dir = site.render(tmp.resolve("ran"));
    // The bootstrapped cluster, cp-01 a fresh root.
    Map<String, Path> roots = roots(List.of("cp-01"));
    try {
      for (String h : HOSTS.subList(1, HOSTS.size())) {
        roots.put(h, site.root(h, tmp.resolve("root-" + h)));
      }
      List<String> cmd = bootstrap(inventory(roots, ""));
      RealTools.Result r = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
      RenderedCase.assertExit(0, r);
      assertEquals(
          List.of(JOIN + " --control-plane --certificate-key c" + "0".repeat(62) + "1"),
          calls(roots.get("cp-01")),
          "the replaced host joins with a key made on cp-02");
      List<String> cp02 = calls(roots.get("cp-02"));
      assertEquals(
          List.of(
              JOIN + " --control-plane --certificate-key c" + "0".repeat(62) + "1",
              "version --output short",
              TOKEN,
              UPLOAD),
          cp02);
      assertFalse(cp02.stream().anyMatch(c -> c.startsWith("init --")), cp02::toString);
      assertEquals(List.of(JOIN), calls(roots.get("gpu-node-01")));
    } finally {
      deleteRoots(roots);
    }
  }

  /**
   * A first host with an admin kubeconfig whose API server does not answer, and no other host that
   * answers (kubeadm init failed half-way, or the control plane is down): play 02b stops with the
   * host named and the fix, and runs kubeadm init nowhere.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aFailedInitIsNamedNotRunAgain() throws Exception {
    Path dir = RenderedCase.render("static-kubeadm-ha", tmp.resolve("render")).ansible();
    Map<String, Path> roots = roots(HOSTS);
    try {
      Path etc = Files.createDirectories(roots.get("cp-01").resolve("etc/kubernetes"));
      Files.writeString(etc.resolve("admin.conf"), "client-key-data: ADMINSECRET\n");
      RealTools.Result r =
          RealTools.run(
              dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, bootstrap(inventory(roots, "")));
      assertTrue(r.exitCode() != 0, r.output());
      String flat = r.output().replaceAll("\\s+", " ");
      assertTrue(
          flat.contains(
              "cp-01 has /etc/kubernetes/admin.conf but no control-plane host's API server answers"
                  + " through it (The connection to the server k8s-api.lab.example:6443 was refused"
                  + " - did you specify the right host or port?): a kubeadm init that failed, or a"
                  + " control plane that is down."),
          r.output());
      assertTrue(flat.contains("run `kubeadm reset -f` on cp-01"), r.output());
      for (String h : HOSTS) {
        assertFalse(
            calls(roots.get(h)).stream()
                .anyMatch(c -> c.startsWith("init --") || c.startsWith("join")),
            h + " ran init or join");
      }
    } finally {
      deleteRoots(roots);
    }
  }

  /**
   * A GPU node whose kubelet.conf trusts another cluster's CA (it joined a cluster that was since
   * recreated): play 02b names it and the fix instead of leaving it out of the cluster silently.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aWorkerThatJoinedAnotherClusterIsNamed() throws Exception {
    Path dir = RenderedCase.render("static-kubeadm-ha", tmp.resolve("render")).ansible();
    Map<String, Path> roots = roots(HOSTS);
    try {
      String otherCa = "-----BEGIN CERTIFICATE-----\nMIIBOTHERCLUSTER\n-----END CERTIFICATE-----\n";
      Path etc = Files.createDirectories(roots.get("gpu-node-01").resolve("etc/kubernetes"));
      Files.writeString(
          etc.resolve("kubelet.conf"),
          "apiVersion: v1\nkind: Config\nclusters:\n- name: kubernetes\n  cluster:\n"
              + "    certificate-authority-data: "
              + java.util.Base64.getEncoder()
                  .encodeToString(otherCa.getBytes(java.nio.charset.StandardCharsets.UTF_8))
              + "\n    server: https://k8s-api.lab.example:6443\n");
      RealTools.Result r =
          RealTools.run(
              dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, bootstrap(inventory(roots, "")));
      assertTrue(r.exitCode() != 0, r.output());
      String flat = r.output().replaceAll("\\s+", " ");
      assertTrue(
          flat.contains(
              "gpu-node-01's /etc/kubernetes/kubelet.conf trusts another cluster's CA (sha256 "
                  + sha256(otherCa.strip())
                  + "), not this cluster's (sha256 "
                  + sha256(CLUSTER_CA.strip())
                  + " on cp-01): it joined a cluster that no longer exists or another one."),
          r.output());
      assertEquals(1, RealTools.recap(r.output(), "gpu-node-01").get("failed"), r.output());
      assertEquals(List.of(), calls(roots.get("gpu-node-01")), "the node was not joined again");
    } finally {
      deleteRoots(roots);
    }
  }

  /**
   * kubeadm on AWS: kubelet gets ecr-credential-provider from a loopback stand-in of
   * artifacts.k8s.io (the binary of the minor's cloud-provider-aws release and the .sha256 beside
   * it), its CredentialProviderConfig and both flags in /etc/default/kubelet; a second run changes
   * nothing, and a binary that does not match its published checksum is refused.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void onAwsKubeletPullsFromEcrThroughTheCredentialProvider() throws Exception {
    Path dir = RenderedCase.render("aws-kubeadm", tmp.resolve("render")).ansible();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    byte[] binary =
        "#!/bin/sh\necho ecr-credential-provider stand-in\n".getBytes(StandardCharsets.UTF_8);
    Map<String, byte[]> files = new java.util.concurrent.ConcurrentHashMap<>();
    String path = "/v1.33.4/linux/amd64/ecr-credential-provider-linux-amd64";
    files.put(path, binary);
    files.put(path + ".sha256", (sha256(binary) + "\n").getBytes(StandardCharsets.UTF_8));
    com.sun.net.httpserver.HttpServer server =
        com.sun.net.httpserver.HttpServer.create(
            new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        ex -> {
          byte[] body = files.get(ex.getRequestURI().getPath());
          ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
          if (body != null) {
            ex.getResponseBody().write(body);
          }
          ex.close();
        });
    server.start();
    try {
      Path inventory =
          Files.writeString(
              tmp.resolve("inventory.yml"), RealTools.chrootInventory(root, "pool_h100"));
      List<String> cmd =
          List.of(
              "ansible-playbook",
              "-i",
              inventory.toString(),
              "--tags",
              "ecr-credential-provider",
              "-e",
              "kubeadm_ecr_credential_provider_base_url=http://127.0.0.1:"
                  + server.getAddress().getPort(),
              "02b-kubernetes.yml");
      RealTools.Result first = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
      RenderedCase.assertExit(0, first);
      Path bin =
          root.resolve("usr/local/libexec/kubernetes/credential-provider/ecr-credential-provider");
      assertTrue(java.util.Arrays.equals(binary, Files.readAllBytes(bin)));
      assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(bin)));
      String config = Files.readString(root.resolve("etc/kubernetes/credential-provider.yaml"));
      assertTrue(
          config.contains(
              "kind: CredentialProviderConfig\nproviders:\n  - name: ecr-credential-provider\n"
                  + "    matchImages: [\"*.dkr.ecr.*.amazonaws.com\", \"*.dkr.ecr.*.amazonaws.com.cn\"]\n"
                  + "    defaultCacheDuration: 12h\n"
                  + "    apiVersion: credentialprovider.kubelet.k8s.io/v1\n"),
          config);
      assertEquals(
          List.of(
              "KUBELET_EXTRA_ARGS=--image-credential-provider-config=/etc/kubernetes/credential-provider.yaml"
                  + " --image-credential-provider-bin-dir=/usr/local/libexec/kubernetes/credential-provider"
                  + " --node-labels=node.kubernetes.io/instance-type=p5.48xlarge"),
          Files.readAllLines(root.resolve("etc/default/kubelet")));

      RealTools.Result second = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
      RenderedCase.assertExit(0, second);
      assertEquals(0, RealTools.recap(second.output(), "testhost").get("changed"), second.output());

      Files.delete(bin);
      files.put(path, "#!/bin/sh\necho tampered\n".getBytes(StandardCharsets.UTF_8));
      RealTools.Result tampered = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
      assertTrue(tampered.exitCode() != 0, tampered.output());
      assertTrue(tampered.output().contains("did not match"), tampered.output());
      assertFalse(Files.exists(bin), "a binary that fails its checksum is not installed");
    } finally {
      server.stop(0);
      TestRoot.delete(root);
    }
  }

  /**
   * A GPU node registers with its pool's labels and taints: kubelet's --node-labels and
   * --register-with-taints in /etc/default/kubelet, which kubeadm's kubelet drop-in reads, written
   * before kubeadm join starts kubelet; a control-plane host gets neither. The pool's
   * node-role.kubernetes.io/gpu stays out of --node-labels (kubelet refuses to start with a label
   * of the reserved namespaces it may not give itself; play 03 sets it through the API). A second
   * run changes nothing.
   */
  @ChrootTest
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aGpuNodeRegistersWithItsPoolsLabelsAndTaints() throws Exception {
    Path dir = RenderedCase.render("static-kubeadm", tmp.resolve("render")).ansible();
    Path root = TestRoot.fresh(tmp.resolve("root"));
    try {
      Path inventory =
          Files.writeString(
              tmp.resolve("inventory.yml"), RealTools.chrootInventory(root, "pool_h100"));
      List<String> cmd =
          List.of(
              "ansible-playbook",
              "-i",
              inventory.toString(),
              "--tags",
              "kubelet-registration",
              "-e",
              "{\"gpu_operator_node_taints\": [{\"key\": \"nvidia.com/gpu\", \"value\":"
                  + " \"present\", \"effect\": \"NoSchedule\"}, {\"key\": \"dedicated\","
                  + " \"value\": \"\", \"effect\": \"NoExecute\"}]}",
              "02b-kubernetes.yml");
      RealTools.Result first = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
      RenderedCase.assertExit(0, first);
      assertEquals(
          List.of(
              "KUBELET_EXTRA_ARGS=--node-labels=workload-type=training"
                  + " --register-with-taints=nvidia.com/gpu=present:NoSchedule,dedicated=:NoExecute"),
          Files.readAllLines(root.resolve("etc/default/kubelet")));
      RealTools.Result second = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
      RenderedCase.assertExit(0, second);
      assertEquals(0, RealTools.recap(second.output(), "testhost").get("changed"), second.output());
      // A pool that lost its labels and taints: the old arguments go with them.
      List<String> none =
          List.of(
              "ansible-playbook",
              "-i",
              inventory.toString(),
              "--tags",
              "kubelet-registration",
              "-e",
              "{\"kubeadm_node_labels\": {}, \"gpu_operator_node_taints\": []}",
              "02b-kubernetes.yml");
      RenderedCase.assertExit(0, RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, none));
      assertEquals(List.of(), Files.readAllLines(root.resolve("etc/default/kubelet")));
    } finally {
      TestRoot.delete(root);
    }
  }

  private static final List<String> HOSTS = List.of("cp-01", "cp-02", "cp-03", "gpu-node-01");
  private static final String JOIN =
      "join k8s-api.lab.example:6443 --token abcdef.0123456789abcdef"
          + " --discovery-token-ca-cert-hash sha256:"
          + "a".repeat(64);
  private static final String TOKEN = "token create --print-join-command --ttl=15m";
  private static final String UPLOAD = "init phase upload-certs --upload-certs";

  /**
   * Play 02b's bootstrap of {@link #HOSTS} (roots as {@link #roots} makes them) converged once:
   * init and the joins, then a run that changes nothing. The tests that start from a bootstrapped
   * cluster share it.
   */
  private Converged bootstrapped(String name, String controlPlaneVars) throws Exception {
    Path dir = RenderedCase.render(name, tmp.resolve("render")).ansible();
    Converged.Builder b =
        Converged.playbook(dir, "02b-kubernetes.yml")
            .hosts(HOSTS.toArray(String[]::new))
            .inventory(roots -> inventoryText(roots, controlPlaneVars))
            .env(RealTools.YAML_INVENTORY)
            .args("-v", "--tags", "bootstrap", "--skip-tags", "helm,kubernetes");
    for (String h : HOSTS) {
      b.executable(h, "usr/bin/kubeadm", FAKE_KUBEADM)
          .executable(h, "usr/bin/kubectl", FAKE_KUBECTL)
          .file(h, "etc/fake-cluster-ca", CLUSTER_CA)
          .file(h, "var/log/fake-kubeadm.log", "");
    }
    return b.converge();
  }

  /** A chroot root per host with the kubeadm and kubectl stand-ins and the cluster's CA. */
  private Map<String, Path> roots(List<String> hosts) throws Exception {
    Map<String, Path> roots = new LinkedHashMap<>();
    for (String h : hosts) {
      Path root = TestRoot.fresh(tmp.resolve("root-" + h + "-" + System.nanoTime()));
      roots.put(h, root);
      for (String[] tool :
          List.of(new String[] {"kubeadm", FAKE_KUBEADM}, new String[] {"kubectl", FAKE_KUBECTL})) {
        Path bin = root.resolve("usr/bin/" + tool[0]);
        Files.writeString(bin, tool[1]);
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
      }
      Files.writeString(root.resolve("etc/fake-cluster-ca"), CLUSTER_CA);
      Files.writeString(root.resolve("var/log/fake-kubeadm.log"), "");
    }
    return roots;
  }

  private Path inventory(Map<String, Path> roots, String controlPlaneVars) throws Exception {
    return Files.writeString(
        tmp.resolve("ha-inventory-" + System.nanoTime() + ".yml"),
        inventoryText(roots, controlPlaneVars));
  }

  private static String inventoryText(Map<String, Path> roots, String controlPlaneVars) {
    StringBuilder inv = new StringBuilder("all:\n  hosts:\n");
    roots.forEach(
        (h, root) ->
            inv.append("    ")
                .append(h)
                .append(": {")
                .append(h.startsWith("cp-") ? controlPlaneVars : "")
                .append("ansible_connection: community.general.chroot, ansible_host: \"")
                .append(root)
                .append("\"}\n"));
    inv.append("  children:\n")
        .append("    kube_control_plane:\n      hosts: {cp-01: {}, cp-02: {}, cp-03: {}}\n")
        .append("    gpu_nodes:\n      hosts: {gpu-node-01: {}}\n")
        .append("    pool_h100:\n      hosts: {gpu-node-01: {}}\n");
    return inv.toString();
  }

  /**
   * Play 02b's bootstrap: init and joins. The CNI's Helm install and the wait for Ready nodes need
   * an API server (tags helm, kubernetes) and are left out; KubernetesReadyWaitTest runs the wait.
   */
  private static List<String> bootstrap(Path inventory) {
    return List.of(
        "ansible-playbook",
        "-v",
        "-i",
        inventory.toString(),
        "--tags",
        "bootstrap",
        "--skip-tags",
        "helm,kubernetes",
        "02b-kubernetes.yml");
  }

  private static void deleteRoots(Map<String, Path> roots) throws Exception {
    for (Path root : roots.values()) {
      if (Files.exists(root)) {
        TestRoot.delete(root);
      }
    }
  }

  private static String sha256(String s) throws Exception {
    return sha256(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String sha256(byte[] b) throws Exception {
    return java.util.HexFormat.of()
        .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(b));
  }

  private static List<String> calls(Path root) throws Exception {
    Path log = root.resolve("var/log/fake-kubeadm.log");
    return Files.exists(log) ? Files.readAllLines(log) : List.of();
  }

  /**
   * The cgroup edit on the files nvidia-ctk leaves: in-place (toolkit 1.17: runc and nvidia under
   * the CRI plugin, go-toml's indentation) and drop-in (1.18: config.toml holds only version and
   * imports); a false becomes true, everything else stays byte for byte, a second run writes
   * nothing, and a version 1 file is refused rather than edited.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void theCgroupEditKeepsNvidiaCtksConfigurationAndIsIdempotent() throws Exception {
    String header = "[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.runc.options]";
    String inPlace =
        "version = 2\n\n[plugins]\n\n  [plugins.\"io.containerd.grpc.v1.cri\"]\n\n"
            + "    [plugins.\"io.containerd.grpc.v1.cri\".containerd]\n"
            + "      default_runtime_name = \"nvidia\"\n\n"
            + "      [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes]\n\n"
            + "        [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia]\n"
            + "          runtime_type = \"io.containerd.runc.v2\"\n\n"
            + "          [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.nvidia.options]\n"
            + "            BinaryName = \"/usr/bin/nvidia-container-runtime\"\n\n"
            + "        [plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.runc]\n"
            + "          runtime_type = \"io.containerd.runc.v2\"\n\n"
            + "          "
            + header
            + "\n            BinaryName = \"\"\n            SystemdCgroup = false\n";
    Path a = Files.writeString(tmp.resolve("a.toml"), inPlace);
    assertEquals("changed", edit(a).strip());
    assertEquals(
        inPlace.replace("SystemdCgroup = false", "SystemdCgroup = true"), Files.readString(a));
    assertEquals("", edit(a).strip(), "a second run writes nothing");

    String missingKey = inPlace.replace("            SystemdCgroup = false\n", "");
    Path b = Files.writeString(tmp.resolve("b.toml"), missingKey);
    assertEquals("changed", edit(b).strip());
    assertEquals(
        missingKey.replace(header + "\n", header + "\n            SystemdCgroup = true\n"),
        Files.readString(b));

    String dropIn = "imports = [\"/etc/containerd/conf.d/*.toml\"]\nversion = 2\n";
    Path c = Files.writeString(tmp.resolve("c.toml"), dropIn);
    assertEquals("changed", edit(c).strip());
    assertEquals(
        dropIn
            + "\n[plugins.\"io.containerd.grpc.v1.cri\".containerd.runtimes.runc]\n"
            + "  runtime_type = \"io.containerd.runc.v2\"\n\n"
            + header
            + "\n  SystemdCgroup = true\n",
        Files.readString(c));
    assertEquals("", edit(c).strip());

    Path d = Files.writeString(tmp.resolve("d.toml"), "[plugins.cri]\n  sandbox_image = \"x\"\n");
    RealTools.Result r = script(d);
    assertEquals(1, r.exitCode(), r.output());
    assertTrue(r.output().contains("refusing to edit a version 1"), r.output());
    assertEquals("[plugins.cri]\n  sandbox_image = \"x\"\n", Files.readString(d));
  }

  private String edit(Path file) throws Exception {
    RealTools.Result r = script(file);
    assertEquals(0, r.exitCode(), r.output());
    assertFalse(Files.exists(Path.of(file + ".gpugen-tmp")));
    return r.output();
  }

  private RealTools.Result script(Path file) throws Exception {
    Path script =
        RealTools.repoRoot()
            .resolve(
                "templates/ansible/roles/container_runtime/files/containerd-systemd-cgroup.py");
    return RealTools.run(
        tmp, Duration.ofMinutes(1), Map.of(), "python3", script.toString(), file.toString());
  }

  /** Play 02b on one chroot host that is a GPU node of pool h100 and the control plane. */
  private Map<String, Integer> run(Path dir, Path root, String base, String which)
      throws Exception {
    Path inventory =
        Files.writeString(
            tmp.resolve("inventory.yml"),
            RealTools.chrootInventory(root, "pool_h100", "kube_control_plane"));
    List<String> cmd =
        List.of(
            "ansible-playbook",
            "-i",
            inventory.toString(),
            "--skip-tags",
            "bootstrap,hardware",
            "-e",
            "kubeadm_repo_base_url=" + base,
            "02b-kubernetes.yml");
    long start = System.nanoTime();
    RealTools.Result r = RealTools.run(dir, RUN_TIMEOUT, RealTools.YAML_INVENTORY, cmd);
    System.out.printf(
        "chroot 02b %s: %d ms%n", which, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    RenderedCase.assertExit(0, r);
    return RealTools.recap(r.output(), "testhost");
  }

  private static String lastLine(Path file) throws Exception {
    List<String> lines = Files.readAllLines(file);
    return lines.get(lines.size() - 1);
  }

  /** A settings file's lines without comments and blanks, spaces around '=' removed. */
  private static List<String> settings(Path file) throws Exception {
    List<String> out = new ArrayList<>();
    for (String l : Files.readAllLines(file)) {
      String t = l.strip();
      if (!t.isEmpty() && !t.startsWith("#")) {
        out.add(t.replaceAll("\\s*=\\s*", "="));
      }
    }
    return out;
  }

  /** dpkg's view of the root (its status file), as CudaRepositoryTest reads it. */
  static final class Dpkg {
    private Dpkg() {}

    static Map<String, String> installed(Path root) throws Exception {
      Map<String, String> out = new LinkedHashMap<>();
      for (String stanza : Files.readString(root.resolve("var/lib/dpkg/status")).split("\n\n")) {
        if (field(stanza, "Status").endsWith(" installed")) {
          out.put(field(stanza, "Package"), field(stanza, "Version"));
        }
      }
      return out;
    }

    static List<String> held(Path root, List<String> names) throws Exception {
      List<String> out = new ArrayList<>();
      for (String stanza : Files.readString(root.resolve("var/lib/dpkg/status")).split("\n\n")) {
        if (names.contains(field(stanza, "Package"))
            && field(stanza, "Status").startsWith("hold ")) {
          out.add(field(stanza, "Package"));
        }
      }
      out.sort(java.util.Comparator.comparingInt(names::indexOf));
      return out;
    }

    private static String field(String stanza, String name) {
      for (String line : stanza.split("\n")) {
        if (line.startsWith(name + ": ")) {
          return line.substring(name.length() + 2);
        }
      }
      return "";
    }
  }
}
