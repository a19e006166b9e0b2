package dev.gpugen.lint.rules.spec;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Cidr;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A placeholder from the IPv4 documentation ranges left where a real address belongs: gpugen init
 * writes them on purpose, and nothing else would stop gpugen up from creating a cluster whose API
 * or nodes the controller can never reach.
 */
public final class SpecDocumentationAddress extends Rule {
  /** gpugen init's self-check expects this warning at its placeholders. */
  public static final String ID = "spec-documentation-address";

  /** TEST-NET-1, -2 and -3, RFC 5737 section 3 (https://www.rfc-editor.org/rfc/rfc5737). */
  private static final List<Cidr> RANGES =
      List.of(
          Cidr.parse("192.0.2.0/24"), Cidr.parse("198.51.100.0/24"), Cidr.parse("203.0.113.0/24"));

  /** A dotted quad (the reader range-checks the octets of host and CIDR fields, not a URL's). */
  private static final Pattern DOTTED_QUAD = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

  private static final String API_FIX =
      "replace it with the address range your controller / office / CI reaches the API from";

  private static final String HOST_FIX = "replace it with the address Ansible reaches the host at";

  public SpecDocumentationAddress() {
    super(
        ID,
        Severity.WARNING,
        "an address or CIDR lies in a documentation range (192.0.2.0/24, 198.51.100.0/24,"
            + " 203.0.113.0/24)",
        "RFC 5737 reserves 192.0.2.0/24 (TEST-NET-1), 198.51.100.0/24 (TEST-NET-2) and"
            + " 203.0.113.0/24 (TEST-NET-3) for documentation: no real client or host has such an"
            + " address. gpugen init writes them as placeholders, and so do the examples: in an"
            + " ingress list (network.sshIngressCidrs, kubernetes.apiIngressCidrs,"
            + " kubernetes.publicCidrs, cloud.gke.authorizedNetworks) one lets nobody in, so the"
            + " plays time out against the API or the nodes after gpugen up has started paying"
            + " for them; as a host (pools[].hosts, kubernetes.controlPlane.hosts and endpoint,"
            + " ansible.bastion, the host of a mirror, Git or API server URL) it is no machine at"
            + " all. Replace each with the range your"
            + " controller, office or CI connects from, or the host's real address. Source:"
            + " https://www.rfc-editor.org/rfc/rfc5737");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    ClusterSpec.Network n = spec.network();
    String vpcFix = "use a private range (RFC 1918), e.g. 10.0.0.0/16";
    n.vpcCidr().ifPresent(c -> cidr(c, SpecPath.of("network", "vpcCidr"), vpcFix, findings));
    n.subnetCidr().ifPresent(c -> cidr(c, SpecPath.of("network", "subnetCidr"), vpcFix, findings));
    cidrs(
        n.sshIngressCidrs(),
        SpecPath.of("network", "sshIngressCidrs"),
        "replace it with the address range your controller / office / CI reaches the nodes'"
            + " SSH from",
        findings);
    spec.cloud()
        .gke()
        .ifPresent(
            g ->
                cidrs(
                    g.authorizedNetworks(),
                    SpecPath.of("cloud", "gke", "authorizedNetworks"),
                    API_FIX,
                    findings));
    for (int i = 0; i < spec.pools().size(); i++) {
      hosts(spec.pools().get(i).hosts(), SpecPath.of("pools", i, "hosts"), findings);
    }
    spec.kubernetes()
        .ifPresent(
            k -> {
              cidrs(k.publicCidrs(), SpecPath.of("kubernetes", "publicCidrs"), API_FIX, findings);
              cidrs(
                  k.apiIngressCidrs(),
                  SpecPath.of("kubernetes", "apiIngressCidrs"),
                  API_FIX,
                  findings);
              hosts(
                  k.controlPlaneHosts(),
                  SpecPath.of("kubernetes", "controlPlane", "hosts"),
                  findings);
              k.controlPlaneEndpoint()
                  .ifPresent(
                      e ->
                          address(
                              e.substring(0, Math.max(0, e.lastIndexOf(':'))),
                              e,
                              SpecPath.of("kubernetes", "controlPlane", "endpoint"),
                              "replace it with the load balancer or DNS name in front of your API"
                                  + " servers",
                              findings));
            });
    ClusterSpec.Mirrors m = spec.mirrors();
    SpecPath mirrors = SpecPath.of("mirrors");
    String mirrorFix = "replace it with your mirror's address or DNS name";
    url(m.ubuntu(), mirrors.key("ubuntu"), mirrorFix, findings);
    url(m.cuda(), mirrors.key("cuda"), mirrorFix, findings);
    url(m.nvidiaContainerToolkit(), mirrors.key("nvidiaContainerToolkit"), mirrorFix, findings);
    url(m.kubernetes(), mirrors.key("kubernetes"), mirrorFix, findings);
    url(m.lustre(), mirrors.key("lustre"), mirrorFix, findings);
    url(m.files(), mirrors.key("files"), mirrorFix, findings);
    url(m.git(), mirrors.key("git"), mirrorFix, findings);
    SpecPath helm = mirrors.key("helm");
    url(m.helmGpuOperator(), helm.key("gpuOperator"), mirrorFix, findings);
    url(m.helmEksCharts(), helm.key("eksCharts"), mirrorFix, findings);
    url(m.helmCilium(), helm.key("cilium"), mirrorFix, findings);
    url(m.helmTigera(), helm.key("tigera"), mirrorFix, findings);
    m.registries()
        .forEach(
            (registry, u) ->
                url(Optional.of(u), mirrors.key("registries").key(registry), mirrorFix, findings));
    String gitFix = "replace it with your Git server's address or DNS name";
    spec.gitops()
        .ifPresent(
            g -> {
              SpecPath argocd = SpecPath.of("gitops", "argocd");
              url(Optional.of(g.argocd().repoUrl()), argocd.key("repoURL"), gitFix, findings);
              url(
                  Optional.of(g.argocd().server()),
                  argocd.key("server"),
                  "replace it with your API server's address or DNS name",
                  findings);
            });
    url(spec.ansible().pull().gitUrl(), SpecPath.of("ansible", "pull", "gitUrl"), gitFix, findings);
    spec.connection()
        .bastion()
        .ifPresent(
            b ->
                address(
                    b.host(),
                    b.host(),
                    SpecPath.of("ansible", "bastion", "host"),
                    "replace it with your jump host's address or DNS name",
                    findings));
  }

  /**
   * Each entry written at {@code list}; one only inherited (kubernetes.apiIngressCidrs defaults to
   * network.sshIngressCidrs) is reported where it is written.
   */
  private static void cidrs(List<String> values, SpecPath list, String fix, Findings findings) {
    for (int i = 0; i < values.size(); i++) {
      SpecPath at = list.index(i);
      if (findings.isWritten(at)) {
        cidr(values.get(i), at, fix, findings);
      }
    }
  }

  private static void cidr(String text, SpecPath path, String fix, Findings findings) {
    if (!findings.isWritten(path)) {
      return;
    }
    Cidr block = Cidr.parse(text).canonical();
    range(block)
        .ifPresent(
            r ->
                findings.report(
                    path,
                    path
                        + " "
                        + text
                        + (r.equals(block)
                            ? " is a documentation range"
                            : " is inside " + r + ", a documentation range")
                        + " (RFC 5737): no real client or host has it",
                    fix));
  }

  private static void hosts(List<ClusterSpec.Host> hosts, SpecPath list, Findings findings) {
    for (int j = 0; j < hosts.size(); j++) {
      String a = hosts.get(j).address();
      address(a, a, list.index(j).key("address"), HOST_FIX, findings);
    }
  }

  /**
   * A URL's host ({@code https://192.0.2.10:8443/ubuntu}, {@code ssh://git@192.0.2.5/repo}, a
   * registry's {@code 192.0.2.5:5000}), reported with the whole URL.
   */
  private static void url(Optional<String> url, SpecPath path, String fix, Findings findings) {
    url.ifPresent(
        u -> {
          String rest = u.contains("://") ? u.substring(u.indexOf("://") + 3) : u;
          String authority = rest.split("[/?#]", 2)[0];
          String host = authority.substring(authority.lastIndexOf('@') + 1).split(":", 2)[0];
          address(host, u, path, fix, findings);
        });
  }

  /**
   * Reports {@code text} at {@code path} when its host part {@code host} is a dotted quad in one.
   */
  private static void address(
      String host, String text, SpecPath path, String fix, Findings findings) {
    if (!DOTTED_QUAD.matcher(host).matches() || !findings.isWritten(path)) {
      return;
    }
    range(Cidr.parse(host + "/32"))
        .ifPresent(
            r ->
                findings.report(
                    path,
                    path
                        + " "
                        + text
                        + " is a documentation address (RFC 5737, "
                        + r
                        + "): no real host has it",
                    fix));
  }

  private static Optional<Cidr> range(Cidr block) {
    return RANGES.stream().filter(r -> r.contains(block)).findFirst();
  }
}
