# Transcribes Megatron-LM's functional-test golden iteration times (single
# DGX node, small GPT) into the common 27-column schema; with the argument
# gb200, those of its GB200 CI machines (two trays of 4 GPUs) with the
# attention column (megatron-ci-functional-small-gb200.csv). Run in the
# NVIDIA/Megatron-LM mirror; writes the CSV on stdout.
import subprocess, json, re, statistics, sys
REV = subprocess.run(['git','rev-parse','HEAD'],capture_output=True,text=True).stdout.strip()
def show(p):
    r = subprocess.run(['git','show','HEAD:'+p],capture_output=True,text=True)
    return r.stdout if r.returncode == 0 else None
def date(p):
    return subprocess.run(['git','log','-1','--format=%ad','--date=short','HEAD','--',p],capture_output=True,text=True).stdout.strip()
GB200 = sys.argv[1:] == ['gb200']
# the tests each recipe runs, by its GPU count; GB200's one-tray recipe is left out (header)
RECIPES = ((('gb200/gpt.yaml', 8), ('gb200/gpt-1node.yaml', 4)) if GB200 else (('h100/gpt.yaml', 8),))
names, one_tray = {}, set()
for rp, g in RECIPES:
    recipe = show('tests/test_utils/recipes/' + rp)
    for m in re.finditer(r'test_case:\s*\[([^\]]*)\]', recipe):
        for n in m.group(1).split(','):
            if g == 4:
                one_tray.add(n.strip())
            else:
                names[n.strip()] = g
EXCL = ['--num-experts','--fp8-format','--multi-latent-attention','--decoder-first-pipeline-num-layers',
        '--decoder-last-pipeline-num-layers','--account-for-embedding-in-pipeline-split',
        '--account-for-loss-in-pipeline-split','--use-megatron-fsdp','--use-torch-fsdp2',
        '--data-parallel-sharding-strategy','--perform-rl-step','--prompts','--num-tokens-to-generate',
        '--linear-attention-freq','--experimental-attention-variant','--squared-relu','--use-mup',
        '--error-injection-rate','--step-batch-size-schedule','--cuda-graph-impl','--enable-cuda-graph',
        '--tp-comm-overlap','--test-mode','--attention-output-gate','--hierarchical-context-parallel-sizes',
        '--num-distributed-optimizer-instances','--microbatch-group-size-per-virtual-pipeline-stage']
if GB200:
    EXCL.append('--export-kd-teacher-load')   # knowledge distillation: a teacher model runs too
NOTE = ['--deterministic-mode','--attention-backend','--use-distributed-optimizer','--overlap-grad-reduce',
        '--overlap-param-gather','--sequence-parallel','--recompute-granularity','--recompute-method',
        '--recompute-num-layers','--log-params-norm','--log-num-zeros-in-grad','--timing-log-level',
        '--untie-embeddings-and-output-weights','--swiglu','--disable-bias-linear','--position-embedding-type',
        '--normalization','--qk-layernorm','--group-query-attention','--num-query-groups','--cross-entropy-loss-fusion',
        '--calculate-per-token-loss','--no-gradient-accumulation-fusion','--manual-gc','--empty-unused-memory-level',
        '--defer-embedding-wgrad-compute','--cp-comm-type','--ddp-average-in-collective','--transformer-impl']
PLAT = {'dgx_gb200': 'GB200'} if GB200 else {'dgx_h100': 'H100-SXM5-80GB', 'dgx_a100': 'A100-SXM4-80GB'}
rows, prov, skipped = [], [], []
base = 'tests/functional_tests/test_cases/gpt'
for name in sorted(names):
    cfgp = f'{base}/{name}/model_config.yaml'
    cfg = show(cfgp)
    if cfg is None:
        continue
    margs = cfg.split('MODEL_ARGS:')[1] if 'MODEL_ARGS:' in cfg else ''
    margs = re.split(r'^\S', margs, flags=re.M)[0]
    def arg(a, d=None):
        m = re.search(r'^\s*' + re.escape(a) + r':\s*(.+?)\s*(#.*)?$', margs, re.M)
        return m.group(1).strip().strip('"') if m else d
    envm = re.search(r'NCCL_ALGO:\s*(\S+)', cfg)
    bad = [e for e in EXCL if arg(e) is not None and arg(e) not in ('false', 'False')]
    for plat, gpu in PLAT.items():
        gvp = f'{base}/{name}/golden_values_dev_{plat}.json'
        gv = show(gvp)
        if gv is None:
            continue
        if bad:
            skipped.append(f'{name} ({plat}): {", ".join(bad)}')
            continue
        try:
            it = json.loads(gv)['iteration-time']['values']
        except Exception:
            skipped.append(f'{name} ({plat}): no iteration-time')
            continue
        vals = [float(v) for k, v in it.items() if int(k) >= 10 and isinstance(v, (int, float))]
        if len(vals) < 3:
            skipped.append(f'{name} ({plat}): fewer than 3 iteration times past step 10')
            continue
        t = statistics.median(vals)
        L = int(arg('--num-layers')); h = int(arg('--hidden-size')); a = int(arg('--num-attention-heads'))
        gb = arg('--global-batch-size'); mb = int(arg('--micro-batch-size')); s = int(arg('--seq-length'))
        if gb is None:
            skipped.append(f'{name} ({plat}): no --global-batch-size'); continue
        gb = int(gb)
        tp = int(arg('--tensor-model-parallel-size', 1)); pp = int(arg('--pipeline-model-parallel-size', 1))
        cp = int(arg('--context-parallel-size', 1))
        gpus = names[name]
        if gpus % (tp * pp * cp):
            skipped.append(f'{name} ({plat}): tp*pp*cp does not divide {gpus}'); continue
        dp = gpus // (tp * pp * cp)
        vp = 1
        if arg('--num-layers-per-virtual-pipeline-stage'):
            vp = L // (pp * int(arg('--num-layers-per-virtual-pipeline-stage')))
        elif arg('--num-virtual-stages-per-pipeline-rank'):
            vp = int(arg('--num-virtual-stages-per-pipeline-rank'))
        swiglu = arg('--swiglu') == 'true'
        ffn = arg('--ffn-hidden-size')
        if ffn is None:
            # Megatron-LM's default (arguments.py): 4h, or 4h x 2/3 for SwiGLU
            ffn = int(4 * h * 2 / 3 / 64) * 64 if swiglu else 4 * h
        ffn = int(ffn)
        kv = int(arg('--num-query-groups', a)) if arg('--group-query-attention') == 'true' else a
        if arg('--vocab-size'):
            V0 = int(arg('--vocab-size'))
        elif arg('--vocab-file') and 'bpe' in arg('--vocab-file'):
            V0 = 50257   # the GPT-2 BPE vocabulary (vocab.json)
        else:
            skipped.append(f'{name} ({plat}): tokenizer vocabulary not stated'); continue
        div = int(arg('--make-vocab-size-divisible-by', 128)) * tp
        V = -(-V0 // div) * div   # Megatron pads the vocabulary to a multiple of 128 x tp
        prec = 'bf16' if arg('--bf16') == 'true' else 'fp16' if arg('--fp16') == 'true' else 'fp32'
        rg = arg('--recompute-granularity')
        rc = 'full' if rg == 'full' else 'selective' if rg == 'selective' else 'none'
        if tp > 1 and arg('--sequence-parallel') != 'true':
            rc += '/no_sp'   # TP without sequence parallelism (added 2026-12-08)
        fsdp = 'zero1' if arg('--use-distributed-optimizer') == 'true' else 'none'
        tok = gb * s / (t * gpus)
        rows.append([name[:60], gpu, gpus, gpus // 4 if GB200 else 1, L, h, ffn, a, kv, V, s,
                     'swiglu' if swiglu else 'gelu', gb, mb, tp, pp, cp, vp, dp, 1, fsdp, prec, rc, f'{tok:.0f}', '', '',
                     f'{t:.5f}'])
        if GB200:
            unf = arg('--attention-backend') == 'unfused' or arg('--transformer-impl') == 'local'
            rows[-1].append('unfused' if unf else 'fused')
        # dropout (column added 2026-12-08 to the split files, after 'attention'):
        # Megatron-LM's default 0.1 unless both dropouts are set to 0
        drop = float(arg('--hidden-dropout', 0.1)) > 0 or float(arg('--attention-dropout', 0.1)) > 0
        rows[-1].append('true' if drop else 'false')
        notes = [f'{k}={arg(k)}' for k in NOTE if arg(k) is not None]
        if envm: notes.append(f'NCCL_ALGO={envm.group(1)}')
        prov.append(f'row {len(rows)}: {name}: {gvp} (last changed {date(gvp)}), iteration-time at steps >= 10: '
                    + ' '.join(f'{v:g}' for v in vals) + f'; median {t:.5f} s; {cfgp}: ' + ', '.join(notes))
hdr = f'''# Source: NVIDIA/Megatron-LM@{REV}:tests/functional_tests/test_cases/gpt/<test>/golden_values_dev_dgx_{{h100,a100}}.json (the "iteration-time" series of each functional test, steps 1-50) and the same directory's model_config.yaml (MODEL_ARGS, ENV_VARS). Tests chosen: every test case that tests/test_utils/recipes/h100/gpt.yaml runs, with a dev golden file for DGX H100 or DGX A100.
# What the numbers are: the wall time per training iteration (Megatron-LM's "elapsed time per iteration", seconds) that Megatron-LM's CI recorded as the golden values of its nightly/MR functional tests, on one DGX node: tests/test_utils/recipes/h100/gpt.yaml spec 'nodes: 1, gpus: 8'. They are CI measurements, not tuned benchmarks: the configs log parameter norms and zeros in gradients every step (--log-params-norm, --log-num-zeros-in-grad), many run --deterministic-mode with NCCL_ALGO=Ring and --attention-backend unfused, and --timing-log-level 0; those flags are listed per row.
# step_time_s: the median of the golden iteration times at steps 10, 15, ..., 50 (step 1, the warm-up, and step 5 left out); the values themselves are listed per row. tokens_per_s_per_gpu is DERIVED: global_batch x seq_len / (step_time_s x 8 GPUs). No TFLOP/s or MFU is published.
# Hardware: DGX H100 (H100 SXM 80GB, NVSwitch) and DGX A100 (the memory size is not stated: A100-SXM4-80GB assumed). Software: the Megatron-Core dev container of the CI run (versions not in the files); --transformer-impl transformer_engine or local per row.
# Model: GPT (pretrain_gpt.py, --use-mcore-models), shapes from MODEL_ARGS. Unstated and assumed: ffn_hidden = 4h (gelu) or Megatron-LM's SwiGLU default int(4h x 2/3 / 64) x 64 when --ffn-hidden-size is absent; the GPT-2 BPE vocabulary (50257, vocab.json) padded as Megatron-LM pads it, to a multiple of 128 x tp (--make-vocab-size-divisible-by); kv_heads = heads unless --group-query-attention. fsdp: zero1 with --use-distributed-optimizer, else none. recompute: --recompute-granularity (none when absent). dp = 8 / (tp x pp x cp). vp from --num-layers-per-virtual-pipeline-stage.
# Sequence parallelism: rows with tp > 1 that do not pass --sequence-parallel carry '/no_sp' in the recompute cell (since 2026-12-08; the reader had assumed it whenever tp > 1). Not expressible in the common schema and left to the reader's defaults: tied or untied embeddings and the bias/norm family (the model ties by activation), RoPE vs learned positions, dropout (Megatron-LM's default 0.1), the attention backend per row (the index gives the table one stack).
# Rows left out (not expressible or not plain pre-training): MoE, MLA, FP8, uneven or embedding-counting pipeline splits, Megatron-FSDP / torch FSDP2, CUDA graphs, TP communication overlap, RL and inference tests; the list of skipped tests follows the per-row provenance.
# Licence: Megatron-LM is BSD-3-Clause (LICENSE at the same commit).
# model: the test case name, cut at 60 characters (the loader's limit); the full name is in the row's provenance.
# Per-row provenance:
'''
hdr_gb200 = f'''# Source: NVIDIA/Megatron-LM@{REV}:tests/functional_tests/test_cases/gpt/<test>/golden_values_dev_dgx_gb200.json (the "iteration-time" series of each functional test, steps 1-50) and the same directory's model_config.yaml (MODEL_ARGS, ENV_VARS). Tests chosen: every test case that tests/test_utils/recipes/gb200/gpt.yaml runs (spec 'nodes: 2, gpus: 4': two GB200 compute trays, 8 GPUs), with a dev golden file for DGX GB200. Generated by validation/step/megatron-ci-functional-small.gen.py gb200, run in the Megatron-LM mirror.
# What the numbers are: the wall time per training iteration (Megatron-LM's "elapsed time per iteration", seconds) that Megatron-LM's CI recorded as golden values on its GB200 machines (Grace CPU hosts, 4 GPUs a tray). The same model configs and flags as the DGX H100 / DGX A100 tables (megatron-ci-functional-small-h100.csv, -a100.csv): CI measurements, not tuned benchmarks (--log-params-norm, --log-num-zeros-in-grad, many with --deterministic-mode, NCCL_ALGO=Ring, --attention-backend unfused); the flags are listed per row.
# step_time_s: the median of the golden iteration times at steps 10, 15, ..., 50 (step 1 and step 5 left out). tokens_per_s_per_gpu is DERIVED: global_batch x seq_len / (step_time_s x 8 GPUs). nodes = 2 (trays of 4 GPUs; the reader puts Grace-Blackwell trays in one NVL72 NVLink domain).
# Left out: the tests of tests/test_utils/recipes/gb200/gpt-1node.yaml (one tray, 4 GPUs). Their golden iteration times are 5-15x those of the same model_config on two trays (e.g. gpt3_mcore_te_tp1_pp4_vp1: 0.106 s on 8 GPUs, 1.928 s on 4; the model configs are identical files), which no stated difference explains; they are listed under Skipped. Also knowledge distillation (--export-kd-teacher-load: a teacher model runs too), as the H100/A100 tables' generator would (its H100 golden file has no iteration times).
# Model: as in the DGX tables (pretrain_gpt.py, shapes from MODEL_ARGS; ffn 4h or Megatron-LM's SwiGLU default; GPT-2 BPE vocabulary padded to a multiple of 128 x tp; kv_heads = heads unless --group-query-attention; fsdp zero1 with --use-distributed-optimizer; recompute from --recompute-granularity; dp = 8 / (tp x pp x cp)). attention: unfused where the row passes --attention-backend=unfused or --transformer-impl=local, fused otherwise.
# Rows left out (not expressible or not plain pre-training): MoE, MLA, FP8, uneven or embedding-counting pipeline splits, Megatron-FSDP / torch FSDP2, CUDA graphs, TP communication overlap, RL, inference and distillation tests; the list of skipped tests follows the per-row provenance.
# Licence: Megatron-LM is BSD-3-Clause (LICENSE at the same commit).
# model: the test case name, cut at 60 characters (the loader's limit); the full name is in the row's provenance.
# Per-row provenance:
'''
if GB200:
    hdr = hdr_gb200
w = sys.stdout
w.write(hdr)
for p in prov: w.write('# ' + p + '\n')
w.write('# Skipped:\n')
for sline in skipped: w.write('# ' + sline + '\n')
for n in sorted(one_tray): w.write('# ' + n + ' (dgx_gb200, gpt-1node.yaml, 4 GPUs): one-tray run, left out (above)\n')
w.write('model,gpu,gpus,nodes,layers,hidden,ffn_hidden,heads,kv_heads,vocab,seq_len,activation,global_batch,micro_batch,tp,pp,cp,vp,dp,ep,fsdp,precision,recompute,tokens_per_s_per_gpu,tflops_per_gpu,mfu,step_time_s' + (',attention' if GB200 else '') + ',dropout\n')
for r in rows: w.write(','.join(str(x) for x in r) + '\n')
print(len(rows), 'rows', len(skipped), 'skipped', file=sys.stderr)
