# The trainer's recipe, owned here and sourced by scripts/gen2.sh and
# scripts/train_net.sh: `recipe NAME=VALUE...` prints the `janggun train`
# arguments of the recipe of nn-abc4e3e48b16 and nn-013b8d4f0298 with the
# changes given (hidden, epochs, batch, lr, floor, wdl, act, buckets, dup:
# `dup=` drops duplicate positions). The shipped nn-27f44730272b and
# nn-074c3c36faf5 before it are `recipe hidden=512 floor=0.01`.
recipe() {
    hidden=256 epochs=2 batch=1024 lr=0.002 floor=0.05 wdl=0.1 act=crelu buckets=1
    dup=--keep-duplicates
    for kv in "$@"; do
        case ${kv%%=*} in
        hidden | epochs | batch | lr | floor | wdl | act | buckets | dup) eval "$kv" ;;
        *)
            echo "recipe: no setting ${kv%%=*}" >&2
            return 2
            ;;
        esac
    done
    echo "--hidden $hidden --epochs $epochs --batch $batch --lr $lr --lr-floor $floor" \
        "--wdl $wdl --activation $act --buckets $buckets --seed 1 $dup"
}
