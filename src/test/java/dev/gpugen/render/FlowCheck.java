package dev.gpugen.render;

import dev.gpugen.render.AppliedNetwork.Cidr;
import dev.gpugen.render.AppliedNetwork.Group;
import dev.gpugen.render.AppliedNetwork.Members;
import dev.gpugen.render.AppliedNetwork.PrefixList;
import dev.gpugen.render.AppliedNetwork.Rule;
import dev.gpugen.render.NetworkFlows.Applicable;
import dev.gpugen.render.NetworkFlows.Deploy;
import dev.gpugen.render.NetworkFlows.Need;
import dev.gpugen.render.NetworkFlows.Party;
import dev.gpugen.render.NetworkFlows.Ports;
import dev.gpugen.render.NetworkFlows.Row;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Holds an applied network against the flow table, both ways.
 *
 * <ul>
 *   <li>Every required row is allowed: an egress rule of the sender's security groups and an
 *       ingress rule of the receiver's admit it (outside senders and receivers have none of
 *       gpugen's), and it is routable: in the VPC; to the internet through a NAT gateway whose
 *       subnet routes to the VPC's internet gateway (or the existing VPC's own routes, an
 *       assumption it names); to an AWS service through an interface endpoint with private DNS, S3
 *       through the gateway endpoint on the sender's route table, else the internet; to the API
 *       load balancer through a TCP listener forwarding to every control-plane instance.
 *   <li>Every flow the rules allow between two parties (and from any CIDR an ingress rule names, to
 *       any CIDR or prefix list an egress rule names) is within the rows of the deploy, and nothing
 *       is open to 0.0.0.0/0 or ::/0 inbound.
 * </ul>
 */
final class FlowCheck {
  /**
   * What the check found.
   *
   * @param failures one line per required row not allowed and per allowed flow the table lacks
   * @param evidence per required row, the rules (and routes) that allow it
   * @param assumptions what the check takes on trust (routes it cannot see)
   */
  record Result(List<String> failures, Map<String, String> evidence, Set<String> assumptions) {}

  /** A set of protocols and ports: "all", or per protocol sorted, merged closed intervals. */
  static final class PortSet {
    private boolean all;
    private final Map<String, List<long[]>> ranges = new TreeMap<>();

    static PortSet of(Ports p) {
      PortSet s = new PortSet();
      s.add(p);
      return s;
    }

    static PortSet of(List<Ports> ports) {
      PortSet s = new PortSet();
      ports.forEach(s::add);
      return s;
    }

    void add(Ports p) {
      if (p.protocol().equals("all")) {
        all = true;
        return;
      }
      long[] r =
          switch (p.protocol()) {
            case "tcp", "udp" ->
                p.from() < 0 ? new long[] {0, 65535} : new long[] {p.from(), p.to()};
            // ICMP: type * 256 + code, so "type 8, any code" is one interval.
            case "icmp" ->
                p.from() < 0
                    ? new long[] {0, 65535}
                    : p.to() < 0
                        ? new long[] {p.from() * 256L, p.from() * 256L + 255}
                        : new long[] {p.from() * 256L + p.to(), p.from() * 256L + p.to()};
            default -> new long[] {0, 0};
          };
      addRange(p.protocol(), r);
    }

    private void addRange(String protocol, long[] r) {
      List<long[]> list = new ArrayList<>(ranges.getOrDefault(protocol, List.of()));
      list.add(r);
      list.sort((a, b) -> Long.compare(a[0], b[0]));
      List<long[]> merged = new ArrayList<>();
      for (long[] x : list) {
        if (!merged.isEmpty() && x[0] <= merged.get(merged.size() - 1)[1] + 1) {
          long[] last = merged.get(merged.size() - 1);
          last[1] = Math.max(last[1], x[1]);
        } else {
          merged.add(new long[] {x[0], x[1]});
        }
      }
      ranges.put(protocol, merged);
    }

    void addAll(PortSet other) {
      all |= other.all;
      other.ranges.forEach((p, list) -> list.forEach(r -> addRange(p, r)));
    }

    boolean isEmpty() {
      return !all && ranges.values().stream().allMatch(List::isEmpty);
    }

    PortSet intersect(PortSet other) {
      if (all) {
        return other.copy();
      }
      if (other.all) {
        return copy();
      }
      PortSet out = new PortSet();
      ranges.forEach(
          (p, list) -> {
            for (long[] a : list) {
              for (long[] b : other.ranges.getOrDefault(p, List.of())) {
                long from = Math.max(a[0], b[0]);
                long to = Math.min(a[1], b[1]);
                if (from <= to) {
                  out.addRange(p, new long[] {from, to});
                }
              }
            }
          });
      return out;
    }

    /** What of this set {@code other} lacks; "all" minus anything but "all" stays "all". */
    PortSet minus(PortSet other) {
      if (other.all) {
        return new PortSet();
      }
      if (all) {
        return copy();
      }
      PortSet out = new PortSet();
      ranges.forEach(
          (p, list) -> {
            for (long[] a : list) {
              List<long[]> pieces = new ArrayList<>(List.of(new long[] {a[0], a[1]}));
              for (long[] b : other.ranges.getOrDefault(p, List.of())) {
                List<long[]> next = new ArrayList<>();
                for (long[] x : pieces) {
                  if (b[1] < x[0] || b[0] > x[1]) {
                    next.add(x);
                  } else {
                    if (x[0] < b[0]) {
                      next.add(new long[] {x[0], b[0] - 1});
                    }
                    if (x[1] > b[1]) {
                      next.add(new long[] {b[1] + 1, x[1]});
                    }
                  }
                }
                pieces = next;
              }
              pieces.forEach(x -> out.addRange(p, x));
            }
          });
      return out;
    }

    boolean containsAll(PortSet need) {
      return need.minus(this).isEmpty();
    }

    private PortSet copy() {
      PortSet c = new PortSet();
      c.addAll(this);
      return c;
    }

    @Override
    public String toString() {
      if (all) {
        return "all traffic";
      }
      List<String> out = new ArrayList<>();
      ranges.forEach(
          (p, list) -> {
            for (long[] r : list) {
              out.add(describe(p, r));
            }
          });
      return String.join(", ", out);
    }

    private static String describe(String p, long[] r) {
      return switch (p) {
        case "tcp", "udp" ->
            p.toUpperCase(Locale.ROOT) + " " + (r[0] == r[1] ? r[0] : r[0] + "-" + r[1]);
        case "icmp" ->
            r[0] == 0 && r[1] == 65535
                ? "ICMP any type"
                : r[0] == r[1]
                    ? "ICMP type " + (r[0] / 256) + " code " + (r[0] % 256)
                    : "ICMP types " + (r[0] / 256) + "-" + (r[1] / 256);
        default -> "IP protocol " + p;
      };
    }
  }

  /** A sender or receiver: one of the table's parties in the VPC, or an outside address. */
  record End(Party party, String cidr, String prefixList) {
    static End of(Party p) {
      return new End(p, null, null);
    }

    static End cidr(String c) {
      return new End(null, c, null);
    }

    static End prefixList(String id) {
      return new End(null, null, id);
    }

    boolean inVpc() {
      return party != null;
    }

    @Override
    public String toString() {
      return party != null ? party.label : cidr != null ? cidr : "prefix list " + prefixList;
    }
  }

  /** Allowed traffic between two ends, with the egress and ingress rules that allow it. */
  record Grant(Rule egress, Rule ingress, PortSet ports) {
    String rules() {
      List<String> out = new ArrayList<>();
      if (egress != null) {
        out.add("egress " + egress.address());
      }
      if (ingress != null) {
        out.add("ingress " + ingress.address());
      }
      return String.join(" + ", out);
    }
  }

  private final AppliedNetwork net;
  private final Deploy deploy;
  private final List<Applicable> rows;
  private final List<String> failures = new ArrayList<>();
  private final Map<String, String> evidence = new TreeMap<>();
  private final Set<String> assumptions = new TreeSet<>();

  private FlowCheck(AppliedNetwork net, Deploy deploy) {
    this.net = net;
    this.deploy = deploy;
    this.rows = NetworkFlows.of(deploy);
  }

  static Result check(AppliedNetwork net, Deploy deploy) {
    FlowCheck c = new FlowCheck(net, deploy);
    c.inTheVpc();
    c.required();
    c.nothingElse();
    return new Result(List.copyOf(c.failures), c.evidence, c.assumptions);
  }

  /** Every party's groups and subnets are in the one VPC. */
  private void inTheVpc() {
    net.parties.forEach(
        (party, m) -> {
          for (String g : m.groups()) {
            String vpc = net.groupVpc.get(g);
            // The cluster security group is EKS's: its VPC is the cluster's subnets'.
            if (vpc != null && !vpc.equals(net.vpc)) {
              failures.add(
                  party.label
                      + ": security group "
                      + net.groupAddress.get(g)
                      + " is in "
                      + vpc
                      + ", not in the VPC "
                      + net.vpc);
            }
          }
          for (String s : m.subnets()) {
            String vpc = net.subnetVpc.get(s);
            if (vpc != null && !vpc.equals(net.vpc)) {
              failures.add(party.label + ": subnet " + s + " is in " + vpc + ", not " + net.vpc);
            }
          }
        });
  }

  // ---------------------------------------------------------------------------------------------
  // Required rows

  private void required() {
    for (Applicable a : rows) {
      if (a.need() != Need.REQUIRED) {
        continue;
      }
      Row row = a.row();
      if (row.to() == Party.AWS_APIS) {
        awsApis(row);
        continue;
      }
      List<End> froms = ends(row.from());
      List<End> tos = ends(row.to());
      if (froms.isEmpty() || tos.isEmpty()) {
        failures.add(
            "required flow has no "
                + (froms.isEmpty() ? "sender" : "receiver")
                + " in the applied network: "
                + row);
        continue;
      }
      PortSet need = PortSet.of(row.ports());
      List<String> proof = new ArrayList<>();
      for (End from : froms) {
        for (End to : tos) {
          List<Grant> grants = grants(from, to);
          PortSet allowed = new PortSet();
          grants.forEach(g -> allowed.addAll(g.ports()));
          PortSet missing = need.minus(allowed);
          if (!missing.isEmpty()) {
            failures.add(
                "required flow not allowed: "
                    + row
                    + ": "
                    + from
                    + " -> "
                    + to
                    + " lacks "
                    + missing
                    + why(from, to));
            continue;
          }
          Optional<String> route = route(from, to);
          if (route.isEmpty()) {
            failures.add("required flow not routable: " + row + ": " + from + " -> " + to);
            continue;
          }
          for (Grant g : grants) {
            if (!g.ports().intersect(need).isEmpty()) {
              proof.add(g.ports().intersect(need) + " by " + g.rules());
            }
          }
          proof.add(route.get());
        }
      }
      if (to(row) == Party.API_LB) {
        loadBalancer(row).ifPresent(proof::add);
      }
      evidence.put(row.id(), String.join("; ", new LinkedHashSet<>(proof)));
    }
  }

  private static Party to(Row row) {
    return row.to();
  }

  /** Which rule is missing, to say in a failure. */
  private String why(End from, End to) {
    List<String> out = new ArrayList<>();
    if (from.inVpc() && egress(from, to).isEmpty()) {
      out.add("no egress rule of " + groups(from) + " reaches " + to);
    }
    if (to.inVpc() && ingress(to, from).isEmpty()) {
      out.add("no ingress rule of " + groups(to) + " admits " + from);
    }
    return out.isEmpty() ? " (the rules allow other ports)" : " (" + String.join("; ", out) + ")";
  }

  private String groups(End e) {
    Members m = net.parties.get(e.party());
    return m == null
        ? "(none)"
        : String.join(
            ", ", m.groups().stream().map(g -> net.groupAddress.getOrDefault(g, g)).toList());
  }

  /** An AWS service row: through an interface endpoint, S3's gateway endpoint, or the internet. */
  private void awsApis(Row row) {
    End from = End.of(row.from());
    if (!net.parties.containsKey(row.from())) {
      failures.add("required flow has no sender in the applied network: " + row);
      return;
    }
    List<String> proof = new ArrayList<>();
    PortSet https = PortSet.of(Ports.tcp(443));
    for (String service : row.services()) {
      Optional<String> way = Optional.empty();
      if (service.equals("s3")) {
        for (AppliedNetwork.Endpoint e : net.endpoints) {
          if (e.service().equals("s3") && e.type().equals("Gateway")) {
            boolean onRoute =
                subnets(row.from()).stream()
                    .allMatch(s -> net.routeTable(s).filter(e.routeTables()::contains).isPresent());
            boolean allowed =
                egressTo(
                        from,
                        r ->
                            r.peer() instanceof PrefixList p && p.id().equals(e.prefixList())
                                || r.peer() instanceof Cidr c && c.everything())
                    .containsAll(https);
            if (onRoute && allowed) {
              way = Optional.of("s3 through the gateway endpoint on the sender's route table");
            }
          }
        }
      } else {
        for (AppliedNetwork.Endpoint e : net.endpoints) {
          if (e.service().equals(service) && e.type().equals("Interface") && e.privateDns()) {
            PortSet allowed = new PortSet();
            grants(from, End.of(Party.ENDPOINTS)).forEach(g -> allowed.addAll(g.ports()));
            if (allowed.containsAll(https)) {
              way = Optional.of(service + " through its interface endpoint (private DNS)");
            }
          }
        }
      }
      if (way.isEmpty()) {
        PortSet allowed = new PortSet();
        grants(from, End.cidr("0.0.0.0/0")).forEach(g -> allowed.addAll(g.ports()));
        Optional<String> route = internet(row.from());
        if (allowed.containsAll(https) && route.isPresent()) {
          way = Optional.of(service + " over HTTPS to the internet (" + route.get() + ")");
        }
      }
      if (way.isEmpty()) {
        failures.add(
            "required flow not allowed: "
                + row
                + ": no interface endpoint with private DNS for "
                + service
                + (service.equals("s3") ? " nor a gateway endpoint on the sender's route" : "")
                + ", and no HTTPS route to the internet");
      } else {
        proof.add(way.get());
      }
    }
    evidence.put(row.id(), String.join("; ", proof));
  }

  /** The load balancer listens on the row's port and forwards to every control-plane instance. */
  private Optional<String> loadBalancer(Row row) {
    for (Ports p : row.ports()) {
      boolean ok = false;
      for (AppliedNetwork.Listener l : net.listeners) {
        AppliedNetwork.TargetGroup tg = net.targetGroups.get(l.targetGroup());
        if (net.loadBalancers.containsKey(l.loadBalancer())
            && l.port() == p.from()
            && l.protocol().equals("TCP")
            && tg != null) {
          Set<String> targets = new TreeSet<>();
          for (String i : net.controlPlaneInstances) {
            targets.add(i + ":" + tg.port());
          }
          Set<String> attached = net.attachments.getOrDefault(tg.arn(), Set.of());
          if (!attached.containsAll(targets) || targets.isEmpty()) {
            failures.add(
                row
                    + ": the load balancer's target group holds "
                    + attached
                    + ", not every"
                    + " control-plane instance "
                    + targets);
          } else if (!tg.preserveClientIp().equals("false")) {
            failures.add(
                row
                    + ": client IP preservation is on: a control-plane instance sent to itself"
                    + " through the load balancer is dropped (hairpinning)");
          }
          ok = true;
        }
      }
      if (!ok) {
        failures.add(row + ": the load balancer has no TCP listener on " + p);
        return Optional.empty();
      }
    }
    return Optional.of(
        "TCP listener forwarding to every control-plane instance, client IP" + " preservation off");
  }

  // ---------------------------------------------------------------------------------------------
  // Nothing else

  private void nothingElse() {
    Set<String> ingressCidrs = new TreeSet<>();
    Set<String> egressCidrs = new TreeSet<>();
    Set<String> prefixLists = new TreeSet<>();
    for (Rule r : net.rules) {
      if (r.peer() instanceof Cidr c) {
        (r.ingress() ? ingressCidrs : egressCidrs).add(c.cidr());
        if (r.ingress() && c.everything() && isPartyGroup(r.group())) {
          failures.add(
              "open to the world: "
                  + r.address()
                  + " admits "
                  + r.ports()
                  + " from "
                  + c.cidr()
                  + " (nothing may come from everywhere)");
        }
      } else if (r.peer() instanceof PrefixList p) {
        prefixLists.add(p.id());
      }
    }
    deploy.sshCidrs().forEach(ingressCidrs::add);
    deploy.apiCidrs().forEach(ingressCidrs::add);
    List<End> inside = new ArrayList<>();
    for (Party p : net.parties.keySet()) {
      inside.add(End.of(p));
    }
    List<End> senders = new ArrayList<>(inside);
    ingressCidrs.forEach(c -> senders.add(End.cidr(c)));
    List<End> receivers = new ArrayList<>(inside);
    egressCidrs.forEach(c -> receivers.add(End.cidr(c)));
    prefixLists.forEach(p -> receivers.add(End.prefixList(p)));
    for (End from : senders) {
      for (End to : receivers) {
        if (!from.inVpc() && !to.inVpc()) {
          continue;
        }
        if (to.inVpc() == false && from.inVpc() && route(from, to).isEmpty()) {
          continue; // Allowed by the rules, but no packet gets there.
        }
        PortSet permitted = permitted(from, to);
        for (Grant g : grants(from, to)) {
          PortSet extra = g.ports().minus(permitted);
          if (!extra.isEmpty()) {
            failures.add(
                "allowed flow the table does not list: "
                    + from
                    + " -> "
                    + to
                    + " "
                    + extra
                    + " by "
                    + g.rules());
          }
        }
      }
    }
  }

  private boolean isPartyGroup(String group) {
    return net.parties.values().stream().anyMatch(m -> m.groups().contains(group));
  }

  /** What the deploy's rows allow from one end to the other. */
  private PortSet permitted(End from, End to) {
    PortSet out = new PortSet();
    for (Applicable a : rows) {
      Row row = a.row();
      if (row.to() != Party.AWS_APIS && covers(row.from(), from) && covers(row.to(), to)) {
        out.addAll(PortSet.of(row.ports()));
      }
    }
    return out;
  }

  /** Whether a row's party stands for this end. */
  private boolean covers(Party p, End e) {
    if (e.inVpc()) {
      return p == e.party();
    }
    if (e.prefixList() != null) {
      return p == Party.S3 && gatewayPrefixLists().contains(e.prefixList());
    }
    if (p == Party.INTERNET) {
      return e.cidr().equals("0.0.0.0/0");
    }
    List<String> cidrs = deploy.cidrs(p);
    return cidrs.stream().anyMatch(c -> new Cidr(c).contains(e.cidr()));
  }

  private Set<String> gatewayPrefixLists() {
    Set<String> out = new TreeSet<>();
    for (AppliedNetwork.Endpoint e : net.endpoints) {
      if (e.type().equals("Gateway")) {
        out.add(e.prefixList());
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Rules and routes

  /** The ends a row's party stands for in this deploy. */
  private List<End> ends(Party p) {
    return switch (p) {
      case CONTROLLER_SSH, CONTROLLER_API -> deploy.cidrs(p).stream().map(End::cidr).toList();
      case INTERNET -> List.of(End.cidr("0.0.0.0/0"));
      case S3 -> gatewayPrefixLists().stream().map(End::prefixList).toList();
      case AWS_APIS -> List.of();
      default -> net.parties.containsKey(p) ? List.of(End.of(p)) : List.of();
    };
  }

  private List<Grant> grants(End from, End to) {
    List<Grant> out = new ArrayList<>();
    List<Rule> egress = from.inVpc() ? egress(from, to) : null;
    List<Rule> ingress = to.inVpc() ? ingress(to, from) : null;
    if (egress == null && ingress == null) {
      return out;
    }
    if (egress == null) {
      ingress.forEach(i -> out.add(new Grant(null, i, PortSet.of(i.ports()))));
    } else if (ingress == null) {
      egress.forEach(e -> out.add(new Grant(e, null, PortSet.of(e.ports()))));
    } else {
      for (Rule e : egress) {
        for (Rule i : ingress) {
          PortSet both = PortSet.of(e.ports()).intersect(PortSet.of(i.ports()));
          if (!both.isEmpty()) {
            out.add(new Grant(e, i, both));
          }
        }
      }
    }
    return out;
  }

  private List<Rule> egress(End from, End to) {
    Set<String> groups = net.parties.get(from.party()).groups();
    List<Rule> out = new ArrayList<>();
    for (Rule r : net.rules) {
      if (!r.ingress() && groups.contains(r.group()) && matches(r.peer(), to)) {
        out.add(r);
      }
    }
    return out;
  }

  private PortSet egressTo(End from, java.util.function.Predicate<Rule> peer) {
    Set<String> groups = net.parties.get(from.party()).groups();
    PortSet out = new PortSet();
    for (Rule r : net.rules) {
      if (!r.ingress() && groups.contains(r.group()) && peer.test(r)) {
        out.add(r.ports());
      }
    }
    return out;
  }

  private List<Rule> ingress(End to, End from) {
    Set<String> groups = net.parties.get(to.party()).groups();
    List<Rule> out = new ArrayList<>();
    for (Rule r : net.rules) {
      if (r.ingress() && groups.contains(r.group()) && matches(r.peer(), from)) {
        out.add(r);
      }
    }
    return out;
  }

  /** Whether a rule's peer takes in this end. */
  private boolean matches(AppliedNetwork.Peer peer, End e) {
    if (peer instanceof Group g) {
      return e.inVpc() && net.parties.get(e.party()).groups().contains(g.id());
    }
    if (peer instanceof PrefixList p) {
      return p.id().equals(e.prefixList());
    }
    Cidr c = (Cidr) peer;
    if (e.inVpc()) {
      // A CIDR takes in a party whose every subnet it holds (unknown subnets: only 0.0.0.0/0).
      Set<String> subnets = net.parties.get(e.party()).subnets();
      return c.cidr().equals("0.0.0.0/0")
          || !subnets.isEmpty()
              && subnets.stream()
                  .allMatch(
                      s -> net.subnetCidr.containsKey(s) && c.contains(net.subnetCidr.get(s)));
    }
    if (e.cidr() != null) {
      return c.contains(e.cidr());
    }
    return false;
  }

  private Set<String> subnets(Party p) {
    Members m = net.parties.get(p);
    return m == null ? Set.of() : m.subnets();
  }

  /** How a packet gets from one end to the other, if it does. */
  private Optional<String> route(End from, End to) {
    if (from.inVpc() && to.inVpc()) {
      return Optional.of(
          "both in "
              + (net.createdVpc.isPresent() ? "the VPC" : "the VPC " + net.vpc)
              + " (local route)");
    }
    if (!from.inVpc()) {
      assumptions.add(
          "traffic from "
              + from
              + " reaches the VPC (VPN, Direct Connect, peering or a transit"
              + " gateway of the user's; gpugen creates none)");
      return Optional.of("from outside the VPC: the user's connection, assumed");
    }
    if (to.prefixList() != null) {
      boolean gateway =
          net.endpoints.stream()
              .anyMatch(
                  e ->
                      e.prefixList().equals(to.prefixList())
                          && subnets(from.party()).stream()
                              .allMatch(
                                  s ->
                                      net.routeTable(s)
                                          .filter(e.routeTables()::contains)
                                          .isPresent()));
      return gateway ? Optional.of("the S3 gateway endpoint's route") : internet(from.party());
    }
    return internet(from.party());
  }

  /** A route to the internet for every subnet of a party: NAT then internet gateway, or direct. */
  private Optional<String> internet(Party p) {
    if (net.createdVpc.isEmpty()) {
      assumptions.add(
          "the existing VPC "
              + net.vpc
              + " routes "
              + p.label
              + " to the internet (its own"
              + " routes; network.internet)");
      return Optional.of("the existing VPC's own routes, assumed");
    }
    Set<String> subnets = subnets(p);
    if (subnets.isEmpty()) {
      return Optional.empty();
    }
    String how = null;
    for (String s : subnets) {
      Optional<String> one = internetFrom(s);
      if (one.isEmpty()) {
        return Optional.empty();
      }
      how = one.get();
    }
    return Optional.ofNullable(how);
  }

  private Optional<String> internetFrom(String subnet) {
    Optional<String> table = net.routeTable(subnet);
    if (table.isEmpty()) {
      return Optional.empty();
    }
    for (AppliedNetwork.Route r : net.routes.getOrDefault(table.get(), List.of())) {
      if (!r.destination().equals("0.0.0.0/0")) {
        continue;
      }
      if (vpcGateway(r.internetGateway())) {
        return Optional.of("a default route to the internet gateway");
      }
      String natSubnet = net.natSubnet.get(r.natGateway());
      if (natSubnet != null) {
        Optional<String> public_ = net.routeTable(natSubnet);
        boolean out =
            public_.isPresent()
                && net.routes.getOrDefault(public_.get(), List.of()).stream()
                    .anyMatch(
                        x ->
                            x.destination().equals("0.0.0.0/0") && vpcGateway(x.internetGateway()));
        if (out) {
          return Optional.of("the NAT gateway, whose subnet routes to the internet gateway");
        }
      }
    }
    return Optional.empty();
  }

  private boolean vpcGateway(String id) {
    return id != null && !id.isEmpty() && net.vpc.equals(net.internetGatewayVpc.get(id));
  }
}
