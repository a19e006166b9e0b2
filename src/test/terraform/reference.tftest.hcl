# Terraform's own verdicts on the rendered example (examples/aws-h100): plans with a mocked aws
# provider, one per case the pools variable, the EFA interfaces and the network checks must decide.
# TerraformPlanTest.theReferenceScenariosPlanAsTheyExpect runs it (src/test/terraform/README.md).

mock_provider "aws" {
  mock_data "aws_ami" {
    defaults = { id = "ami-0123456789abcdef0" }
  }
  mock_data "aws_partition" {
    defaults = { partition = "aws" }
  }
  mock_data "aws_iam_policy_document" {
    defaults = { json = "{}" }
  }
  mock_data "aws_availability_zones" {
    defaults = { names = ["us-east-1a", "us-east-1b"] }
  }
  mock_data "aws_eks_addon_version" {
    defaults = { version = "v1.0.0-eksbuild.1" }
  }
}

run "reference_plans" {
  command = plan
  assert {
    condition     = length(module.pool["h100"].instances) == 16
    error_message = "16 nodes"
  }
  assert {
    condition     = length(module.pool["h100"].launch_template.network_interfaces) == 32
    error_message = "p5.48xlarge gets one EFA interface per network card: 32"
  }
  assert {
    condition = alltrue([
      for i, nic in module.pool["h100"].launch_template.network_interfaces :
      nic.network_card_index == i && nic.device_index == 0 && nic.interface_type == (i == 0 ? "efa" : "efa-only")
    ])
    error_message = "card 0 is the EFA-with-ENA primary, every other card efa-only at device 0"
  }
  assert {
    condition     = module.pool["h100"].instances["3"].tags["Name"] == "h100-training-prod-h100-3" && module.pool["h100"].instances["3"].tags["gpugen:pool"] == "h100"
    error_message = "the Name and gpugen:pool tags the inventory reads"
  }
  assert {
    condition     = module.pool["h100"].instances["0"].metadata_options[0].http_tokens == "required" && module.pool["h100"].instances["0"].root_block_device[0].encrypted
    error_message = "IMDSv2 and encrypted root volumes"
  }
  assert {
    condition     = module.pool["h100"].instances["0"].instance_market_options[0].market_type == "spot"
    error_message = "market: spot"
  }
  assert {
    condition     = output.placement_groups == { h100 = "h100-training-prod-h100" }
    error_message = "one placement group per pool, named by gpugen's plan"
  }
}

# A pool as a user would write it in a file of their own: only what has no default. The root
# volume, the market and the placement come from the defaults (the grammar's for the spec's keys).
run "a_pool_with_defaults" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
      }
    }
  }
  assert {
    condition     = module.pool["gpu"].instances["0"].root_block_device[0].volume_type == "gp3" && module.pool["gpu"].instances["0"].root_block_device[0].volume_size == 200 && module.pool["gpu"].instances["0"].root_block_device[0].encrypted
    error_message = "an encrypted 200 GiB gp3 root volume by default"
  }
  assert {
    condition     = length(module.pool["gpu"].instances["0"].instance_market_options) == 0 && module.pool["gpu"].placement_group == null
    error_message = "on demand, in no placement group, by default"
  }
  assert {
    condition     = length(module.pool["gpu"].launch_template.network_interfaces) == 1 && module.pool["gpu"].launch_template.network_interfaces[0].interface_type == null
    error_message = "the primary ENA interface alone"
  }
}

# Nodes are keyed, not counted: without node "1", nodes "0" and "2" keep their keys (and, applied,
# their instances).
run "node_keys_are_stable" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        launch_template_name_prefix = "h100-training-prod-gpu-"
        nodes                       = { "0" = "h100-training-gpu-0", "2" = "h100-training-gpu-2" }
        network_interfaces          = [{ network_card_index = 0 }]
      }
    }
  }
  assert {
    condition     = keys(module.pool["gpu"].instances) == ["0", "2"] && module.pool["gpu"].instances["2"].tags["Name"] == "h100-training-gpu-2"
    error_message = "nodes 0 and 2, under their own keys"
  }
}

# The EFA check reads what the plan writes: efa on card 0, efa-only on every other card, or one
# ENA interface.
run "efa_only_on_card_0" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0, interface_type = "efa-only" }]
      }
    }
  }
  expect_failures = [var.pools]
}

run "ena_beside_efa" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0, interface_type = "efa" }, { network_card_index = 1 }]
      }
    }
  }
  expect_failures = [var.pools]
}

run "cards_out_of_order" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 1 }]
      }
    }
  }
  expect_failures = [var.pools]
}

# The grammar's bounds, as validation: a root volume below 30 GiB, a pool name with upper case.
run "root_volume_too_small" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
        root_volume                 = { size_gib = 10 }
      }
    }
  }
  expect_failures = [var.pools]
}

run "pool_name_not_lower_case" {
  command = plan
  variables {
    pools = {
      GPU = {
        instance_type               = "g6.xlarge"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
      }
    }
  }
  expect_failures = [var.pools]
}

run "spec_word_spelt_otherwise" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
        market                      = "spot-instance"
      }
    }
  }
  expect_failures = [var.pools]
}

run "bad_capacity" {
  command = plan
  variables {
    lustre_capacity_gib = 3600
  }
  expect_failures = [aws_fsx_lustre_file_system.this]
}

# The mock invents the subnet's VPC, so the postcondition that it is vpc_id's must fail.
run "existing_vpc" {
  command = plan
  variables {
    vpc_cidr           = null
    subnet_cidr        = null
    vpc_id             = "vpc-0123456789abcdef0"
    subnet_id          = "subnet-0123456789abcdef0"
    enable_nat_gateway = false
    eks_subnet_ids     = ["subnet-0123456789abcdef1"]
  }
  expect_failures = [data.aws_subnet.existing]
}

run "nat" {
  command = plan
  variables {
    enable_nat_gateway = true
  }
  assert {
    condition     = aws_subnet.public[0].cidr_block == "10.42.255.240/28"
    error_message = "public subnet"
  }
}

run "nat_overlap" {
  command = plan
  variables {
    enable_nat_gateway = true
    public_subnet_cidr = "10.42.1.0/28"
  }
  expect_failures = [aws_subnet.public]
}

run "subnet_outside" {
  command = plan
  variables {
    subnet_cidr = "10.43.0.0/20"
  }
  expect_failures = [aws_subnet.nodes]
}

run "spread_limit" {
  command = plan
  variables {
    placement_strategy = "spread"
  }
  expect_failures = [output.placement_groups]
}

run "placement_none" {
  command = plan
  variables {
    placement_strategy = "none"
  }
  assert {
    condition     = output.placement_groups == { h100 = null }
    error_message = "placement_strategy none: no placement group"
  }
}

# A pool launched into a Capacity Reservation has no placement group (the plan writes none), so
# the spread limit does not count its nodes.
run "spread_reserved_pool" {
  command = plan
  variables {
    placement_strategy = "spread"
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        capacity_reservation_id     = "cr-0123456789abcdef0"
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
        nodes = {
          "0" = "h100-training-gpu-0", "1" = "h100-training-gpu-1", "2" = "h100-training-gpu-2",
          "3" = "h100-training-gpu-3", "4" = "h100-training-gpu-4", "5" = "h100-training-gpu-5",
          "6" = "h100-training-gpu-6", "7" = "h100-training-gpu-7",
        }
      }
    }
  }
  assert {
    condition     = output.placement_groups == { gpu = null } && length(module.pool["gpu"].instances) == 8
    error_message = "eight reserved nodes, in no placement group"
  }
  assert {
    condition     = alltrue([for i in module.pool["gpu"].instances : i.capacity_reservation_specification[0].capacity_reservation_target[0].capacity_reservation_id == "cr-0123456789abcdef0" && length(i.instance_market_options) == 0])
    error_message = "on demand, in the targeted reservation"
  }
}

# Market and reservation go together: a Capacity Block runs only in its reservation, Spot in none,
# and a reservation id is cr- and 17 hexadecimal digits.
run "capacity_block_without_reservation" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "p5.4xlarge"
        market                      = "capacity-block"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
      }
    }
  }
  expect_failures = [var.pools]
}

run "spot_in_a_reservation" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        market                      = "spot"
        capacity_reservation_id     = "cr-0123456789abcdef0"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
      }
    }
  }
  expect_failures = [var.pools]
}

run "reservation_id_malformed" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        capacity_reservation_id     = "cr-0123"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
      }
    }
  }
  expect_failures = [var.pools]
}

# kubernetes.distribution eks (the example's): the second control-plane subnet, the endpoint
# rules and the labels kubelet may register.
run "eks_control_plane_subnet" {
  command = plan
  assert {
    condition     = aws_subnet.eks_control_plane[0].cidr_block == "10.42.255.224/28" && aws_subnet.eks_control_plane[0].availability_zone == "us-east-1b"
    error_message = "the second-to-last /28 of the VPC, in the first other zone"
  }
  assert {
    condition     = aws_eks_cluster.this[0].kubernetes_network_config[0].service_ipv4_cidr == "172.20.0.0/16"
    error_message = "a VPC in 10.0.0.0/8 gets Services from 172.20.0.0/16"
  }
}

run "eks_subnet_overlaps_nodes" {
  command = plan
  variables {
    eks_subnet_cidr = "10.42.0.16/28"
  }
  expect_failures = [aws_subnet.eks_control_plane]
}

run "eks_public_endpoint_without_cidrs" {
  command = plan
  variables {
    eks_endpoint_public_access = true
    eks_public_access_cidrs    = []
  }
  expect_failures = [aws_eks_cluster.this]
}

run "eks_public_endpoint_open_to_all" {
  command = plan
  variables {
    eks_endpoint_public_access = true
    eks_public_access_cidrs    = ["0.0.0.0/0"]
  }
  expect_failures = [aws_eks_cluster.this]
}

run "eks_label_kubelet_may_not_set" {
  command = plan
  variables {
    pools = {
      gpu = {
        instance_type               = "g6.xlarge"
        nodes                       = { "0" = "h100-training-gpu-0" }
        launch_template_name_prefix = "h100-training-prod-gpu-"
        network_interfaces          = [{ network_card_index = 0 }]
        node_labels                 = { "node-role.kubernetes.io/gpu" = "" }
      }
    }
  }
  expect_failures = [var.pools]
}

run "eks_existing_vpc_without_second_subnet" {
  command = plan
  variables {
    vpc_cidr           = null
    subnet_cidr        = null
    vpc_id             = "vpc-0123456789abcdef0"
    subnet_id          = "subnet-0123456789abcdef0"
    enable_nat_gateway = false
  }
  expect_failures = [data.aws_subnet.existing, check.eks_subnets]
}

# The checks variables.tf takes from the grammar's shapes (TerraformVariables, TfShape): a value
# the spec's grammar refuses is refused by Terraform too, each by its variable's validation.
run "cluster_name_reserved" {
  command = plan
  variables {
    cluster_name = "con"
  }
  expect_failures = [var.cluster_name]
}

run "region_malformed" {
  command = plan
  variables {
    region = "US-East-1"
  }
  expect_failures = [var.region]
}

run "hop_limit_out_of_range" {
  command = plan
  variables {
    metadata_hop_limit = 65
  }
  expect_failures = [var.metadata_hop_limit]
}

run "placement_not_a_spec_word" {
  command = plan
  variables {
    placement_strategy = "rack"
  }
  expect_failures = [var.placement_strategy]
}

run "too_many_ssh_cidrs" {
  command = plan
  variables {
    ssh_ingress_cidrs = [for i in range(33) : "10.0.${i}.0/24"]
  }
  expect_failures = [var.ssh_ingress_cidrs]
}

# Lustre without a capacity: the variable may be null (no file system), the file system may not.
run "lustre_without_capacity" {
  command = plan
  variables {
    lustre_capacity_gib = null
  }
  expect_failures = [aws_fsx_lustre_file_system.this]
}
