/*
 * topology.h - what a collective crosses: the links between the GPUs of a
 * node (its topology class) and the fabric between nodes, with the bus
 * bandwidth and latency each achieves as nccl-tests measured them.
 *
 * The figures are those of the project's reference data
 * reference/collectives.yaml (entry ids
 * in the comments of topology.c); docs/model.md section 4 lists them with
 * their sources.  Bus bandwidth (busbw) follows nccl-tests: a ring
 * all-reduce of S bytes over n ranks takes 2(n-1)/n * S / busbw.
 */
#ifndef TC_TOPOLOGY_H
#define TC_TOPOLOGY_H

/* How the GPUs of one node reach each other. */
enum node_topology {
	TOPO_DEFAULT,     /* not stated: derived from the form factor */
	TOPO_NVSWITCH,    /* every GPU on an NVLink switch (HGX, DGX) */
	TOPO_MESH,        /* point-to-point links between every pair (AMD
			     Infinity Fabric on OAM boards) */
	TOPO_NVLINK_PAIRS,/* NVLink bridges join pairs; PCIe between pairs */
	TOPO_PCIE,        /* PCIe with peer-to-peer (switch or root complex) */
	TOPO_PCIE_NO_P2P, /* PCIe without peer-to-peer: through host memory
			     (GeForce cards) */
	TOPO_COUNT
};

/* Names as GPU files write them, in enum order, NULL-terminated; the first
 * (TOPO_DEFAULT) is not a name a file may write. */
extern const char *const topo_names[];

/* The collectives (comm.h times them). */
enum comm_coll { COLL_ALLREDUCE, COLL_REDUCE_SCATTER, COLL_ALLGATHER,
		 COLL_ALLTOALL, COLL_P2P };

/* Names of the collectives in enum order ("all-reduce", ...). */
extern const char *const comm_coll_names[];

/* A group of `n` ranks, `per_node` of them on each node (1 <= per_node <= n,
 * per_node divides n). */
struct comm_group {
	int n;
	int per_node;
};

/* The fabric between nodes. */
enum net_fabric {
	FABRIC_IB,    /* InfiniBand (also a bare bandwidth: the usual fabric) */
	FABRIC_ROCE,  /* RDMA over converged Ethernet */
	FABRIC_EFA,   /* AWS Elastic Fabric Adapter, 2021-22 generation (p4d) */
	FABRIC_EFA_V4,/* AWS EFA of the p6 generation */
	FABRIC_TCP,   /* plain Ethernet, TCP sockets */
	FABRIC_COUNT
};


/* What one fabric achieves: the share of the NICs' line rate a large
 * all-reduce reaches, and the time of the smallest all-reduce across two
 * nodes.  measured = 0 where no measurement exists and another fabric's
 * figures stand in. */
struct fabric_def {
	double busbw_frac;
	double floor_s;
	int measured;
};

const struct fabric_def *fabric_get(enum net_fabric f);

/* Names of the fabrics in enum order, for outputs ("infiniband", ...). */
extern const char *const fabric_names[FABRIC_COUNT];

/*
 * Message size (bytes) at which a collective across `nodes` nodes reaches
 * half its plateau bus bandwidth: grows with the node count, as the 4 to
 * 512 node scan of collectives.yaml shows.
 */
double net_half_bytes(int nodes);

/* The latency of one collective across `nodes` nodes: the fabric's
 * two-node floor times the depth of a tree over the nodes, log2(nodes). */
double net_latency_s(double floor_s, int nodes);

/*
 * The plateau bus bandwidth (bytes/s) of a ring of `k` GPUs inside one
 * node of a GPU whose links are nvlink_Bps and pcie_Bps (both directions
 * added, as GPU files give them) and whose node has topology t:
 *  - NVSwitch and mesh: ring_frac of one NVLink direction, times
 *    the NVLink SHARP gain for an all-reduce over more than 4 GPUs
 *    (nvls_gain at 8, none at 4, linear between);
 *  - NVLink pairs: the NVLink rate for a pair, PCIe beyond;
 *  - PCIe: 0.76 of one x16 direction inside one CPU socket, 0.63 across
 *    sockets; without peer-to-peer 0.55 and 0.44.
 * ring_frac is the calibrated comm_frac (NVLink-class links only).
 */
double topo_ring_busbw(enum node_topology t, double nvlink_Bps, double pcie_Bps,
		       double ring_frac, double nvls_gain, int k, int allreduce);

/*
 * The plateau bus bandwidth (bytes/s) of an all-to-all among `k` GPUs of a
 * node of topology t whose ring (topo_ring_busbw, no NVLS) reaches ring_Bps:
 * 0.89 of the ring on NVSwitch; on PCIe across two CPU sockets (more than
 * 4 GPUs) at most 0.19 of one x16 direction of pcie_Bps (both directions
 * added); the ring's rate elsewhere (no measurement).
 */
double topo_alltoall_busbw(enum node_topology t, double ring_Bps, double pcie_Bps,
			   int k);

/* The topology a GPU that states none gets: mesh for an OAM part with
 * links, NVSwitch for any other part with NVLink that is not a PCIe card,
 * PCIe otherwise. */
enum node_topology topo_default(const char *form_factor, double nvlink_Bps);

/* Whether topology t can hold on a GPU of this form factor and NVLink
 * figure (a file that says nvswitch for a PCIe card is an error). */
int topo_fits(enum node_topology t, const char *form_factor, double nvlink_Bps);

#endif
