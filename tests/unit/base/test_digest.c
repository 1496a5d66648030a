/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Digests against known answers: the FIPS 180-4 / RFC 1321 examples ("", "abc", the two-block
 * message) and messages whose lengths sit on each padding boundary (55, 56, 63, 64 bytes for
 * 64-byte blocks; 111, 112, 127, 128 for SHA-384/512's 128-byte blocks), the answers computed
 * with Python's hashlib.
 */
#include <stdio.h>
#include <string.h>

#include "base/digest.h"
#include "harness.h"

typedef struct vector_case {
    const char *name;
    const char *msg_hex; /* the message, as hex */
    const char *want[6]; /* md5, sha1, sha224, sha256, sha384, sha512 */
} vector_case;

static const vector_case cases[] = {
    {"empty",
     "",
     {"d41d8cd98f00b204e9800998ecf8427e", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
      "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
      "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"}},
    {"abc",
     "616263",
     {"900150983cd24fb0d6963f7d28e17f72", "a9993e364706816aba3e25717850c26c9cd0d89d",
      "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"}},
    {"two_block",
     "6162636462636465636465666465666765666768666768696768696a68696a6b696a6b6c6a6b6c6d6b6c6d6e6c6d6e6f6d6e6f706e6f7071",
     {"8215ef0796a20bcaaae116d3876c664a", "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
      "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
      "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b",
      "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"}},
    {"len55",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d",
     {"52c0e574e1198de5fe3f8f11440dcb1b", "ddf57317ef34bfee3b6df83d359098930eb278bc",
      "703a7d6e61c83903b5db54ddf6dda2268211b47c90bbdac2ed306d8a",
      "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b",
      "fc2728f452750d08b5dbad1aea53202e7fc19c06894d13e36c433b0444a899277c49f16e0577c03db0f0605578836ef6",
      "14fd424b1fcadee624da946ab03f7e1def7c0d6e00f689594319881a26ff30b875ba4c622ac13100c8cc784c9c2eb23159aecbb4a02e3999062f551193e2b256"}},
    {"len56",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d84",
     {"46c9907fc908ee68b1e7b8e71286a518", "a0d492bb0fc889d0eca3bc137066ab6f4f74f369",
      "850fef35478d7a94a417713dbded4a39c18be2b40e6f20f47066d306",
      "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27",
      "6c969a865f38d2eaac60b7963a84c97ba27bcb76e589cbe1e2e89ead6aee4ad0337a4268f054be49c604ddd99692036d",
      "480fa85be41ef55a41208ca28ffc8743c91cf7d24758defe6f95bfb16de614fc86b701034896b047dd571de4318853d80e0809df162f1752cb26da6ddb94a0dd"}},
    {"len63",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d848b9299a0a7aeb5",
     {"a62f6d59e837867693f042f5b8f5a236", "c55856749bef509bdfe6bfebfc7bf4e793e82132",
      "246a939bfdd1eedb1ad51b53a250d197b5752aab09580b7f1df50df7",
      "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055",
      "be67a9a1162c1d97f183980dc811f4f4f835b8b850eb32ecbf87397b26369bc6646a8f2234940dcff142b627c8e21ebb",
      "ecd42a703a4e93e163d60d55e3785b1a763838b0351bc2e6f7c94b4bfb24f9aa15da5d744ebcebe11f0fc4315d45ba3a047b6e60e07448357f2795bf34b73502"}},
    {"len64",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d848b9299a0a7aeb5bc",
     {"7160b8fb5e9e4023d549c3971fbaeead", "bede92be29c3874e1b54ddc77988d606fc857a8e",
      "e480c1c21ffd3f109fc0cde0daf967c748932b64f8e259d98db17420",
      "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241",
      "99d26430f561864c2f7d90b68650b960c86c85d6bf7f54ceeee404bdd59663a7f05588b5c750b862a2a24f6a9ad4c050",
      "8f3cc30b3fb5bf963688a46488249248ac2c67f0f85a145233c6c1e3c16dcd1df634c07d1d31da02576f65b9cf64e1c3fdb318b689b8a14e2e9552bcf30fb133"}},
    {"len111",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d848b9299a0a7aeb5bcc3cad1d8dfe6edf4fb020910171e252c333a41484f565d646b727980878e959ca3aab1b8bfc6cdd4dbe2e9f0f7fe05",
     {"13f00cb15f0c3fe588d1c17cde14b38f", "4a01b1272627e5be00f57bc3c3029c23a452e629",
      "5d5ba2469a7db3e3d5b622bdefbb8fef5582222b0f3dd41db4b62075",
      "67d9492e628fd376e0b2efec8ca2b99b123e202cf620deb270728df979b2f73e",
      "341388a9dc2275074e90cf394323761919761c805fd9e370977c9966a0e8c81a52135f02577670b0071638a4a26dbc31",
      "68cffa6d0d76f309c9ce0d35280939f8e25990c43b7b086ccdf709be35b07d4ddba599541ff2b1c19d34ea49aeafb9659adb7ac3c0b078bb30a22d57fc6687ef"}},
    {"len112",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d848b9299a0a7aeb5bcc3cad1d8dfe6edf4fb020910171e252c333a41484f565d646b727980878e959ca3aab1b8bfc6cdd4dbe2e9f0f7fe050c",
     {"5fe6a9f76b541ec645559589da9a088a", "54c08c2a0ed21de25e3d8606c3929454eb1d3f8b",
      "df564afcb13bf4a0b08d0d3132418ad63f523107e6003f3506167a5b",
      "96b928cff8528dbb99602c709a65b846cb6467acb8b722f0d758e4dc27bfc508",
      "619cc5d06138526d70659eccf602d197e63e1050e22039a7feb40a30a5b2b08fb03729e291df12f8c576e6f1cd8af22a",
      "d0865c524d1dddf7c23b799c413f5adcd7caefd3f66a9b49750ec81066012c25a8bcf94ddea6dc525691673097ca40e0101e897fc97218cfdb0704084e2bef4b"}},
    {"len127",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d848b9299a0a7aeb5bcc3cad1d8dfe6edf4fb020910171e252c333a41484f565d646b727980878e959ca3aab1b8bfc6cdd4dbe2e9f0f7fe050c131a21282f363d444b525960676e75",
     {"acce2474d6cc8302120d09c818d17ef7", "34d5e582029e9b9b85b2febe31da3db7cdabaaea",
      "f2d23206c9419be75e54c12e79b49903565a9240f09d0bf15c548ed4",
      "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07",
      "f8234ab81f5f9641c656680825a9bbb3c2616bcc80b65d5e479a4d96742e1b8742330c9e8256ef5f03caa932487044ca",
      "e0b6a20f1c0c88970a9340152cd5a1c1ecf3d3b8de55102741879438079473540133b812706e5dbec322c8c9523b6fc8c6d16ee626e87ad5fe3d2916afedc369"}},
    {"len128",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d848b9299a0a7aeb5bcc3cad1d8dfe6edf4fb020910171e252c333a41484f565d646b727980878e959ca3aab1b8bfc6cdd4dbe2e9f0f7fe050c131a21282f363d444b525960676e757c",
     {"10b2da1a82f16d99a81a7203fe9f02cb", "a09133e6730ffe899efb70204cb5646cd5dc24ee",
      "6df983e89c8c13cecdfb5f16fc67792ae3c4d062df69124d889a396f",
      "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6",
      "e8480e9c4dd90f88104a79cbaccec48edbd798a142b4f241d726dc252f1502350e824c7d18dadd59d7d716919fb8f9bf",
      "99b16f17aa0b969a5b8f08f367719d516e330ccd2660b6f0688ec031dbc783de50a1cd185a2568dba75070a2403d17d4741d163578515dfd2ff756ddfe4d47b1"}},
    {"len200",
     "030a11181f262d343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8ff060d141b222930373e454c535a61686f767d848b9299a0a7aeb5bcc3cad1d8dfe6edf4fb020910171e252c333a41484f565d646b727980878e959ca3aab1b8bfc6cdd4dbe2e9f0f7fe050c131a21282f363d444b525960676e757c838a91989fa6adb4bbc2c9d0d7dee5ecf3fa01080f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3dae1e8eff6fd040b121920272e353c434a51585f666d74",
     {"4c79b81ac94bad7a875519ce6b964c66", "892b673ca3c696ab13ab8aab3cf3abfbc3aaeb3b",
      "67e6d447872d6de5f0a53915ac4e88b60f08895e33f8453500d5bd30",
      "2c7e18c942ef065b526a2d4e5546283749cd3ddfb51d8fc71f42717363685f46",
      "8deb83535fa35d2f493c6c3695b1057b19232d2f531a0d398d2b958413855aa1594b6bcca0ddcbd24a981330a7ff1cc1",
      "cca3c0276046ef9f2897bdfc3ec330f77f4959914b1462bd581b232ddb3e9aa98acf5f5a2b21c7f49d2e43721daa61a2b5cee6af6052dfeb766e66ddb0d1719c"}},
};

static size_t
unhex(const char *hex, uint8_t *out) {
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        (void)sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    return n;
}

/* The digest of msg by algorithm k (the order of vector_case.want) as a hex string. */
static void
digest_hex(int k, const uint8_t *msg, size_t len, char *out) {
    uint8_t d[DL_DIGEST_MAX];
    size_t n = 0;
    switch (k) {
    case 0:
        n = dl_digest_md5(msg, len, d);
        break;
    case 1:
        n = dl_digest_sha1(msg, len, d);
        break;
    case 2:
        n = dl_digest_sha256(msg, len, true, d);
        break;
    case 3:
        n = dl_digest_sha256(msg, len, false, d);
        break;
    case 4:
        n = dl_digest_sha512(msg, len, true, d);
        break;
    default:
        n = dl_digest_sha512(msg, len, false, d);
        break;
    }
    dl_digest_hex(d, n, out);
    out[2 * n] = '\0';
}

TEST(test_digest_known_answers_on_every_padding_boundary) {
    static const char *algos[6] = {"md5", "sha1", "sha224", "sha256", "sha384", "sha512"};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        uint8_t msg[256];
        size_t len = unhex(cases[c].msg_hex, msg);
        for (int k = 0; k < 6; k++) {
            char got[2 * DL_DIGEST_MAX + 1];
            digest_hex(k, msg, len, got);
            if (strcmp(got, cases[c].want[k]) != 0) {
                HARNESS_FAIL_AT("%s of %s: got %s, want %s", algos[k], cases[c].name, got,
                                cases[c].want[k]);
            }
        }
    }
}

int
main(void) {
    RUN(test_digest_known_answers_on_every_padding_boundary);
    return harness_finish();
}
