package dev.gpugen.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gpugen.render.NetworkFlows.Party;
import dev.gpugen.render.NetworkFlows.Ports;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The network of one applied render, read from the state {@code terraform test} leaves after a
 * mocked apply ({@code terraform show -json}'s state format): every id is known there, so
 * self-references, security-group references, CIDRs and prefix lists resolve as AWS would resolve
 * them. Security groups and their rules (the rule resources, {@code aws_security_group_rule} and
 * inline blocks), what each party's members carry, subnets, route tables, NAT and internet
 * gateways, VPC endpoints and the API load balancer.
 *
 * <p>One thing the state cannot hold is added from AWS's documentation: the rules EKS itself puts
 * on the cluster security group it creates, all traffic in from the group and all traffic out to
 * 0.0.0.0/0 (https://docs.aws.amazon.com/eks/latest/userguide/sec-group-reqs.html).
 */
final class AppliedNetwork {
  /** Who a rule admits or reaches. */
  sealed interface Peer permits Group, Cidr, PrefixList {}

  record Group(String id) implements Peer {}

  /** An IPv4 or IPv6 CIDR. */
  record Cidr(String cidr) implements Peer {
    boolean ipv6() {
      return cidr.contains(":");
    }

    boolean everything() {
      return cidr.equals("0.0.0.0/0") || cidr.equals("::/0");
    }

    /** Whether this CIDR holds all of {@code inner} (IPv4; IPv6 only for ::/0). */
    boolean contains(String inner) {
      if (ipv6() || inner.contains(":")) {
        return cidr.equals("::/0") && inner.contains(":");
      }
      return dev.gpugen.spec.Cidr.parse(cidr).contains(dev.gpugen.spec.Cidr.parse(inner));
    }
  }

  record PrefixList(String id) implements Peer {}

  /**
   * One rule of a security group.
   *
   * @param address the Terraform address it came from (or what added it)
   * @param group the security group it belongs to
   * @param ingress ingress, else egress
   * @param ports protocol and ports
   * @param peer the source (ingress) or destination (egress)
   */
  record Rule(String address, String group, boolean ingress, Ports ports, Peer peer) {
    @Override
    public String toString() {
      return address;
    }
  }

  /** A party's members: the security groups they carry and the subnets they are in. */
  record Members(Set<String> groups, Set<String> subnets) {}

  record Route(String destination, String natGateway, String internetGateway) {}

  record Endpoint(
      String service,
      String type,
      Set<String> groups,
      Set<String> subnets,
      Set<String> routeTables,
      boolean privateDns,
      String prefixList) {}

  record Listener(String loadBalancer, int port, String protocol, String targetGroup) {}

  record TargetGroup(String arn, int port, String preserveClientIp) {}

  final List<Rule> rules = new ArrayList<>();
  final Map<String, String> groupVpc = new TreeMap<>();
  final Map<String, String> groupAddress = new TreeMap<>();
  final Map<Party, Members> parties = new LinkedHashMap<>();
  final Map<String, String> subnetCidr = new TreeMap<>();
  final Map<String, String> subnetVpc = new TreeMap<>();
  final Map<String, String> association = new TreeMap<>();
  final Map<String, List<Route>> routes = new TreeMap<>();
  final Map<String, String> natSubnet = new TreeMap<>();
  final Map<String, String> internetGatewayVpc = new TreeMap<>();
  final List<Endpoint> endpoints = new ArrayList<>();
  final Map<String, String> loadBalancers = new TreeMap<>();
  final List<Listener> listeners = new ArrayList<>();
  final Map<String, TargetGroup> targetGroups = new TreeMap<>();
  final Map<String, Set<String>> attachments = new TreeMap<>();
  final Set<String> controlPlaneInstances = new TreeSet<>();

  /** The VPC gpugen created, if it did (else the spec's vpcId, whose routes are its own). */
  Optional<String> createdVpc = Optional.empty();

  String vpc;

  /** Reads the state's root module and its children. */
  static AppliedNetwork of(JsonNode rootModule, String vpcOfSpec) {
    AppliedNetwork n = new AppliedNetwork();
    n.vpc = vpcOfSpec;
    List<JsonNode> resources = new ArrayList<>();
    List<JsonNode> modules = new ArrayList<>(List.of(rootModule));
    while (!modules.isEmpty()) {
      JsonNode m = modules.remove(0);
      m.path("child_modules").forEach(modules::add);
      m.path("resources").forEach(resources::add);
    }
    for (JsonNode r : resources) {
      if (r.path("type").asText().equals("aws_vpc") && r.path("mode").asText().equals("managed")) {
        n.createdVpc = Optional.of(r.path("values").path("id").asText());
        n.vpc = n.createdVpc.get();
      }
    }
    for (JsonNode r : resources) {
      if (r.path("mode").asText().equals("managed")) {
        n.read(r.path("type").asText(), r.path("address").asText(), r.path("values"));
      }
    }
    n.eksDefaults();
    return n;
  }

  private void read(String type, String address, JsonNode v) {
    switch (type) {
      case "aws_security_group", "aws_default_security_group" -> {
        String id = v.path("id").asText();
        groupVpc.put(id, v.path("vpc_id").asText());
        groupAddress.put(id, address);
        for (String dir : List.of("ingress", "egress")) {
          int i = 0;
          for (JsonNode b : v.path(dir)) {
            legacy(address + "." + dir + "[" + i++ + "]", id, dir.equals("ingress"), b, id);
          }
        }
      }
      case "aws_vpc_security_group_ingress_rule", "aws_vpc_security_group_egress_rule" -> {
        Peer peer =
            text(v, "referenced_security_group_id")
                .<Peer>map(Group::new)
                .or(() -> text(v, "cidr_ipv4").map(Cidr::new))
                .or(() -> text(v, "cidr_ipv6").map(Cidr::new))
                .or(() -> text(v, "prefix_list_id").map(PrefixList::new))
                .orElseThrow(() -> new AssertionError(address + " names no peer: " + v));
        rules.add(
            new Rule(
                address,
                v.path("security_group_id").asText(),
                type.endsWith("ingress_rule"),
                ports(v.path("ip_protocol").asText(), v.path("from_port"), v.path("to_port")),
                peer));
      }
      case "aws_security_group_rule" -> {
        String group = v.path("security_group_id").asText();
        legacy(address, group, v.path("type").asText().equals("ingress"), v, group);
      }
      case "aws_launch_template" -> {
        if (address.startsWith("module.pool[")) {
          Members m = members(Party.NODES);
          for (JsonNode ni : v.path("network_interfaces")) {
            ni.path("security_groups").forEach(g -> m.groups().add(g.asText()));
            text(ni, "subnet_id").ifPresent(m.subnets()::add);
          }
          v.path("vpc_security_group_ids").forEach(g -> m.groups().add(g.asText()));
        }
      }
      case "aws_instance" -> {
        Party p =
            address.startsWith("aws_instance.control_plane")
                ? Party.CONTROL_PLANE
                : address.startsWith("module.pool[") ? Party.NODES : null;
        if (p == null) {
          throw new AssertionError("an instance the flow check does not know: " + address);
        }
        Members m = members(p);
        v.path("vpc_security_group_ids").forEach(g -> m.groups().add(g.asText()));
        if (p == Party.CONTROL_PLANE) {
          text(v, "subnet_id").ifPresent(m.subnets()::add);
          controlPlaneInstances.add(v.path("id").asText());
        }
      }
      case "aws_lb" -> {
        Members m = members(Party.API_LB);
        v.path("security_groups").forEach(g -> m.groups().add(g.asText()));
        v.path("subnets").forEach(s -> m.subnets().add(s.asText()));
        loadBalancers.put(v.path("arn").asText(), address);
      }
      case "aws_lb_listener" -> {
        String tg = "";
        for (JsonNode a : v.path("default_action")) {
          if (a.path("type").asText().equals("forward")) {
            tg = a.path("target_group_arn").asText();
          }
        }
        listeners.add(
            new Listener(
                v.path("load_balancer_arn").asText(),
                v.path("port").asInt(),
                v.path("protocol").asText(),
                tg));
      }
      case "aws_lb_target_group" ->
          targetGroups.put(
              v.path("arn").asText(),
              new TargetGroup(
                  v.path("arn").asText(),
                  v.path("port").asInt(),
                  v.path("preserve_client_ip").asText()));
      case "aws_lb_target_group_attachment" ->
          attachments
              .computeIfAbsent(v.path("target_group_arn").asText(), k -> new TreeSet<>())
              .add(v.path("target_id").asText() + ":" + v.path("port").asInt());
      case "aws_eks_cluster" -> {
        Members m = members(Party.EKS);
        for (JsonNode c : v.path("vpc_config")) {
          m.groups().add(c.path("cluster_security_group_id").asText());
          groupAddress.put(
              c.path("cluster_security_group_id").asText(),
              address + ".vpc_config[0].cluster_security_group_id");
          c.path("security_group_ids").forEach(g -> m.groups().add(g.asText()));
          c.path("subnet_ids").forEach(s -> m.subnets().add(s.asText()));
        }
      }
      case "aws_fsx_lustre_file_system" -> {
        Members m = members(Party.LUSTRE);
        v.path("security_group_ids").forEach(g -> m.groups().add(g.asText()));
        v.path("subnet_ids").forEach(s -> m.subnets().add(s.asText()));
      }
      case "aws_vpc_endpoint" -> {
        Set<String> groups = new TreeSet<>();
        Set<String> subnets = new TreeSet<>();
        Set<String> tables = new TreeSet<>();
        v.path("security_group_ids").forEach(g -> groups.add(g.asText()));
        v.path("subnet_ids").forEach(s -> subnets.add(s.asText()));
        v.path("route_table_ids").forEach(t -> tables.add(t.asText()));
        String service = v.path("service_name").asText();
        endpoints.add(
            new Endpoint(
                service
                    .substring(service.indexOf('.', service.indexOf('.') + 1) + 1)
                    .replaceFirst("^[a-z0-9-]+\\.", ""),
                v.path("vpc_endpoint_type").asText(),
                groups,
                subnets,
                tables,
                v.path("private_dns_enabled").asBoolean(false),
                v.path("prefix_list_id").asText("")));
        if (v.path("vpc_endpoint_type").asText().equals("Interface")) {
          Members m = members(Party.ENDPOINTS);
          m.groups().addAll(groups);
          m.subnets().addAll(subnets);
        }
      }
      case "aws_subnet" -> {
        subnetCidr.put(v.path("id").asText(), v.path("cidr_block").asText());
        subnetVpc.put(v.path("id").asText(), v.path("vpc_id").asText());
      }
      case "aws_route_table_association" ->
          association.put(v.path("subnet_id").asText(), v.path("route_table_id").asText());
      case "aws_route_table" -> {
        String id = v.path("id").asText();
        routes.computeIfAbsent(id, k -> new ArrayList<>());
        for (JsonNode inline : v.path("route")) {
          routes
              .get(id)
              .add(
                  new Route(
                      inline.path("cidr_block").asText(),
                      inline.path("nat_gateway_id").asText(""),
                      inline.path("gateway_id").asText("")));
        }
      }
      case "aws_route" ->
          routes
              .computeIfAbsent(v.path("route_table_id").asText(), k -> new ArrayList<>())
              .add(
                  new Route(
                      v.path("destination_cidr_block").asText(),
                      v.path("nat_gateway_id").asText(""),
                      v.path("gateway_id").asText("")));
      case "aws_nat_gateway" -> natSubnet.put(v.path("id").asText(), v.path("subnet_id").asText());
      case "aws_internet_gateway" ->
          internetGatewayVpc.put(v.path("id").asText(), v.path("vpc_id").asText());
      default -> {
        if (type.contains("security_group") || type.contains("network_acl")) {
          throw new AssertionError(
              address + ": a " + type + " the flow check does not read; teach AppliedNetwork it");
        }
      }
    }
  }

  /**
   * An {@code aws_security_group_rule} or an inline block: one rule per peer it names ({@code self}
   * is the group itself).
   */
  private void legacy(String address, String group, boolean ingress, JsonNode b, String self) {
    Ports ports = ports(b.path("protocol").asText(), b.path("from_port"), b.path("to_port"));
    List<Peer> peers = new ArrayList<>();
    if (b.path("self").asBoolean(false)) {
      peers.add(new Group(self));
    }
    text(b, "source_security_group_id").ifPresent(s -> peers.add(new Group(s)));
    b.path("security_groups").forEach(s -> peers.add(new Group(s.asText())));
    b.path("cidr_blocks").forEach(c -> peers.add(new Cidr(c.asText())));
    b.path("ipv6_cidr_blocks").forEach(c -> peers.add(new Cidr(c.asText())));
    b.path("prefix_list_ids").forEach(p -> peers.add(new PrefixList(p.asText())));
    for (Peer p : peers) {
      rules.add(new Rule(address, group, ingress, ports, p));
    }
  }

  /** The cluster security group's own rules, which EKS creates with it. */
  private void eksDefaults() {
    Members eks = parties.get(Party.EKS);
    if (eks == null) {
      return;
    }
    for (String g : eks.groups()) {
      rules.add(
          new Rule(
              "EKS: the cluster security group's inbound rule", g, true, Ports.ALL, new Group(g)));
      rules.add(
          new Rule(
              "EKS: the cluster security group's outbound rule",
              g,
              false,
              Ports.ALL,
              new Cidr("0.0.0.0/0")));
    }
  }

  private Members members(Party p) {
    return parties.computeIfAbsent(p, k -> new Members(new TreeSet<>(), new TreeSet<>()));
  }

  /** A rule's protocol and ports as the table writes them; -1 or none is "any". */
  static Ports ports(String protocol, JsonNode from, JsonNode to) {
    String p =
        switch (protocol) {
          case "-1", "all" -> "all";
          case "6" -> "tcp";
          case "17" -> "udp";
          case "1" -> "icmp";
          default -> protocol;
        };
    if (p.equals("all")) {
      return Ports.ALL;
    }
    int f = from.isNumber() ? from.asInt() : -1;
    int t = to.isNumber() ? to.asInt() : -1;
    if (p.equals("tcp") || p.equals("udp") || p.equals("icmp")) {
      return new Ports(p, f, t);
    }
    return new Ports(p, -1, -1);
  }

  private static Optional<String> text(JsonNode v, String field) {
    JsonNode n = v.path(field);
    return n.isTextual() && !n.asText().isEmpty() ? Optional.of(n.asText()) : Optional.empty();
  }

  /** The route table of a subnet: its association (the VPC's main table routes locally only). */
  Optional<String> routeTable(String subnet) {
    return Optional.ofNullable(association.get(subnet));
  }
}
