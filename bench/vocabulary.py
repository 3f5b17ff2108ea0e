"""The words a benchmark market's products are named and described with, as Korean second-hand
markets write them: mostly Korean nouns (two syllables above all), their compounds (가죽가방,
무선이어폰), and the English and model words people mix in.
  python3 bench/vocabulary.py          every word, one per line
  python3 bench/vocabulary.py KIND     the search terms of one kind, one per line: words (any word),
                                       two-syllable (Korean words of two syllables), syllable (every
                                       Hangul syllable in a word), typed (each word's first two letters)
"""
import re
import sys

KOREAN = """
가방 지갑 신발 모자 의자 시계 책상 침대 소파 선반 거울 조명 스탠드 커튼 이불 베개 방석 러그 카펫 액자
화분 꽃병 그릇 접시 컵 머그 텀블러 냄비 프라이팬 주전자 도마 칼 수저 젓가락 숟가락 포크 쟁반 밥솥 믹서기 토스터
전자레인지 냉장고 세탁기 건조기 청소기 선풍기 히터 가습기 제습기 공기청정기 에어컨 다리미 드라이기 면도기 전동칫솔 체중계 안마기 정수기 커피머신 오븐
노트북 태블릿 휴대폰 스마트폰 충전기 케이블 이어폰 헤드폰 스피커 마우스 키보드 모니터 프린터 카메라 렌즈 삼각대 배터리 보조배터리 메모리 하드
게임기 조이스틱 리모컨 라디오 전축 턴테이블 앰프 마이크 공유기 허브 외장하드 유에스비 케이스 필름 보호필름 거치대 받침대 스트랩 파우치 커버
자전거 킥보드 헬멧 장갑 등산화 운동화 구두 부츠 샌들 슬리퍼 양말 스타킹 벨트 넥타이 스카프 목도리 머플러 선글라스 안경 귀걸이
목걸이 반지 팔찌 브로치 머리핀 머리띠 시곗줄 우산 양산 캐리어 배낭 백팩 크로스백 토트백 숄더백 클러치 에코백 쇼핑백 필통 연필
볼펜 만년필 색연필 크레파스 물감 붓 스케치북 공책 노트 다이어리 달력 엽서 편지지 스티커 테이프 가위 풀 자 지우개
책 소설 만화책 잡지 동화책 사전 문제집 교재 악보 앨범 음반 엘피 씨디 포스터 피규어 인형 장난감 블록 퍼즐 보드게임
레고 프라모델 무선조종 드론 기차 자동차 비행기 로봇 공룡 곰인형 유모차 카시트 아기띠 젖병 기저귀 턱받이 보행기 바운서 놀이매트 미끄럼틀
그네 텐트 침낭 매트 버너 코펠 랜턴 아이스박스 캠핑의자 테이블 타프 해먹 낚싯대 릴 골프채 골프공 테니스 라켓 배드민턴 탁구
농구공 축구공 야구 글러브 배트 스키 보드 스노보드 수영복 수경 요가매트 덤벨 아령 철봉 러닝머신 실내자전거 줄넘기 훌라후프 폼롤러 밴드
원피스 치마 바지 청바지 반바지 셔츠 블라우스 티셔츠 맨투맨 후드티 니트 가디건 조끼 재킷 자켓 코트 패딩 점퍼 야상 트렌치코트
정장 한복 잠옷 속옷 내복 레깅스 트레이닝복 운동복 교복 앞치마 비옷 화장품 향수 립스틱 틴트 파운데이션 쿠션 아이섀도 마스카라 로션
스킨 크림 선크림 클렌징 마스크팩 샴푸 린스 바디워시 비누 치약 칫솔 수건 손수건 담요 빨래건조대 옷걸이 행거 수납함 바구니 서랍장
옷장 책장 신발장 화장대 식탁 협탁 수납장 진열장 장식장 벤치 스툴 흔들의자 사무용의자 좌식의자 전등 무드등 샹들리에 벽시계 탁상시계 손목시계
빈티지 중고 새상품 미개봉 정품 한정판 수제 원목 가죽 면 린넨 울 실크 스테인리스 유리 도자기 나무 대나무 라탄 철제
무선 유선 블루투스 휴대용 접이식 대형 소형 미니 가정용 업소용 아동용 성인용 남성용 여성용 공용 겨울용 여름용 캠핑용 사무용 학생용
빨강 파랑 노랑 초록 검정 하양 회색 분홍 보라 주황 갈색 베이지 네이비 카키 민트 하늘색 연두 아이보리 와인 골드
상태 좋음 깨끗 사용감 거의 새것 박스 포함 구성품 정리 급처 네고 택포 직거래 반값 무료나눔 교환 선물 이사 처분 일괄
""".split()

COMPOUND_HEADS = """
가방 지갑 신발 모자 의자 시계 책상 조명 이어폰 헤드폰 스피커 키보드 마우스 충전기 케이블 거치대 파우치 케이스 커버 장갑
자켓 코트 패딩 셔츠 바지 치마 원피스 가디건 니트 조끼 부츠 구두 운동화 샌들 텐트 매트 테이블 선반 수납함 바구니
""".split()

COMPOUND_MODIFIERS = """
가죽 원목 무선 유선 휴대용 접이식 대형 소형 미니 가정용 아동용 성인용 남성용 여성용 겨울 여름 캠핑 사무용 학생용 빈티지
수제 한정판 정품 중고 블루투스 스테인리스 유리 나무 라탄 철제 면 린넨 울 실크 검정 하양 회색 분홍 베이지 네이비
""".split()

ENGLISH = """
vintage leather wallet bag shoes cap chair watch desk lamp mug tumbler kettle pan knife bowl plate cup glass tray
laptop tablet phone charger cable earphones headphones speaker mouse keyboard monitor printer camera lens tripod battery
console controller remote radio turntable amplifier microphone router case film stand strap pouch cover bicycle scooter
helmet gloves sneakers boots sandals slippers socks belt tie scarf sunglasses glasses earrings necklace ring bracelet
umbrella backpack tote clutch pencil pen notebook diary sticker tape scissors book novel comic magazine poster figure
doll toy puzzle lego drone robot tent sleeping mat lantern cooler fishing golf tennis racket ball yoga dumbbell
dress skirt pants jeans shirt hoodie knit cardigan vest jacket coat padding jumper pajamas perfume lipstick cushion
wireless portable mini large small red blue green black white gray pink purple navy beige gold silver new used mint
apple samsung sony nike adidas ikea muji dyson lg canon nikon fuji lenovo dell asus logitech bose marshall zara uniqlo
iphone galaxy ipad airpods macbook switch playstation xbox kindle gopro
pro max mini plus ultra lite air 2021 2022 2023 128gb 256gb 512gb 1tb 4k 5g usb-c hdmi
""".split()


def words():
    seen = set()
    for word in KOREAN + [m + h for m in COMPOUND_MODIFIERS for h in COMPOUND_HEADS] + ENGLISH:
        if word not in seen:
            seen.add(word)
            yield word


def terms(kind):
    every = list(words())
    hangul = re.compile(r"[가-힣]+")
    chosen = {
        "words": every,
        "two-syllable": [w for w in every if hangul.fullmatch(w) and len(w) == 2],
        "syllable": sorted({c for w in every for c in w if hangul.fullmatch(c)}),
        "typed": sorted({w[:2] for w in every if len(w) > 2}),
    }[kind]
    return chosen


if __name__ == "__main__":
    print("\n".join(terms(sys.argv[1]) if len(sys.argv) > 1 else words()))
